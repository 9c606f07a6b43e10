import { Suspense } from "react";
import { LoginForm } from "@/components/auth/login-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { getConfig } from "@/lib/config/env";

export const dynamic = "force-dynamic";

export default function LoginPage() {
  const embedded = getConfig().database.kind === "pglite";
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
          {embedded && (
            <CardDescription data-testid="demo-hint">
              Demo accounts: <code>teacher@paperwise.local</code> / <code>paperwise-teacher</code>, or{" "}
              <code>admin@paperwise.local</code> / <code>paperwise-admin</code>.
            </CardDescription>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
