"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { postLogout } from "@/services/auth.services";
import type { ISessionUser } from "@/types/auth.types";

export function AppShell({ user, children }: { user: ISessionUser; children: React.ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const nav = [
    { href: "/", label: "Questions" },
    { href: "/papers", label: "Papers" },
    { href: "/library", label: "Library" },
    { href: "/settings/api", label: "API" },
    ...(user.role === "admin" ? [{ href: "/settings/users", label: "Users" }] : []),
  ];
  return (
    <div className="min-h-screen">
      {/* The first stop for Tab: past the header and navigation straight to the page. */}
      <a
        href="#main"
        data-testid="skip-link"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-card focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-primary focus:shadow focus:ring-2 focus:ring-ring"
      >
        Skip to main content
      </a>
      <header className="sticky top-0 z-20 border-b border-border bg-card/95 backdrop-blur print:hidden">
        {/* On a phone the navigation takes its own row below the name and Sign out. */}
        <div className="mx-auto flex min-h-14 max-w-7xl flex-wrap items-center gap-x-6 gap-y-1 px-4 py-2">
          <Link href="/" className="text-lg font-semibold tracking-tight text-primary">
            Paperwise
          </Link>
          <nav
            aria-label="Main"
            className="order-last -mx-2 flex w-full gap-1 overflow-x-auto sm:order-none sm:mx-0 sm:w-auto"
          >
            {nav.map((n) => (
              <Link
                key={n.href}
                href={n.href}
                aria-current={isCurrent(pathname, n.href) ? "page" : undefined}
                className={cn(
                  "shrink-0 rounded-md px-3 py-1.5 text-sm hover:bg-muted",
                  isCurrent(pathname, n.href) && "bg-accent font-medium text-primary",
                )}
              >
                {n.label}
              </Link>
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm">
            <span className="hidden text-muted-foreground sm:inline" data-testid="user-email">
              {user.email}
            </span>
            <Badge data-testid="user-role">{user.role === "admin" ? "Curriculum admin" : "Teacher"}</Badge>
            <Button
              variant="outline"
              size="sm"
              data-testid="sign-out"
              onClick={async () => {
                await postLogout().catch(() => undefined);
                router.replace("/login");
                router.refresh();
              }}
            >
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 focus:outline-none">
        {children}
      </main>
    </div>
  );
}

/** The nav item for a page and its sub-pages (/papers and /papers/:id). */
function isCurrent(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}
