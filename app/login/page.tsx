import { Suspense } from "react";
import { LoginForm } from "@/components/auth/login-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { demoAccountsInUse } from "@/lib/auth/demo-hint";
import { getDb } from "@/lib/db";

export const dynamic = "force-dynamic";

export default async function LoginPage() {
  // Only the demo accounts that exist with their published passwords (a school's own install,
  // or one whose demo passwords were changed, shows none).
  // A database that cannot be reached shows no hint; the form still renders and says why on sign-in.
  const demo = await getDb()
    .then(demoAccountsInUse)
    .catch(() => []);
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-sm">
        <CardHeader>
          <h1 className="text-2xl font-semibold tracking-tight">Paperwise</h1>
          <CardTitle className="text-sm font-normal text-muted-foreground">
            Sign in to build question papers
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <Suspense>
            <LoginForm />
          </Suspense>
          {demo.length > 0 && (
            <CardDescription data-testid="demo-hint">
              Demo accounts:{" "}
              {demo.map((a, i) => (
                <span key={a.email}>
                  {i > 0 ? ", or " : ""}
                  <code>{a.email}</code> / <code>{a.password}</code>
                </span>
              ))}
              .
            </CardDescription>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
