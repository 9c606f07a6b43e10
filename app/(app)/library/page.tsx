import { HydrationBoundary } from "@tanstack/react-query";
import { Library } from "@/components/library/library";
import { getSessionUser } from "@/lib/auth/session";
import { pageQueries } from "@/lib/query/page-queries";
import { prefetchForSession } from "@/lib/query/prefetch";

export default async function LibraryPage() {
  const user = await getSessionUser();
  // The list comes with the page; polling takes over while anything is being ingested.
  const state = await prefetchForSession([pageQueries.resources()]);
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-2xl font-semibold tracking-tight">Resource library</h1>
      <p className="text-sm text-muted-foreground">
        {user?.role === "admin"
          ? "Upload textbooks, past papers and notes for every teacher."
          : "Upload private notes for yourself; shared resources come from curriculum admins."}
      </p>
      <HydrationBoundary state={state}>
        <Library role={user?.role ?? "teacher"} />
      </HydrationBoundary>
    </div>
  );
}
