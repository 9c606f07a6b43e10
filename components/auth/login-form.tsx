"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert } from "@/components/ui/misc";
import { LoginRequestSchema } from "@/schema/auth.schema";
import { postLogin } from "@/services/auth.services";

export function LoginForm() {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const parsed = LoginRequestSchema.safeParse({ email: data.get("email"), password: data.get("password") });
    if (!parsed.success) {
      setError(
        parsed.error.issues
          .map((i) => (i.path[0] === "email" ? "Enter a valid email address." : "Enter your password."))
          .join(" "),
      );
      return;
    }
    setPending(true);
    setError(null);
    try {
      await postLogin(parsed.data);
      const next = params.get("next");
      router.replace(next?.startsWith("/") && !next.startsWith("//") ? next : "/");
      router.refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : "Sign-in failed");
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate data-testid="login-form">
      <div className="flex flex-col gap-2">
        <Label htmlFor="email">Email</Label>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          data-testid="login-email"
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="password">Password</Label>
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          data-testid="login-password"
        />
      </div>
      {error && (
        <Alert variant="destructive" data-testid="login-error">
          {error}
        </Alert>
      )}
      <Button type="submit" disabled={pending} data-testid="login-submit">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
