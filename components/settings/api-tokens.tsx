"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert, Checkbox } from "@/components/ui/misc";
import { useCreateToken, useRevokeToken, useTokens } from "@/hooks/use-tokens";
import { CreateApiTokenRequestSchema } from "@/schema/auth.schema";
import { API_SCOPES } from "@/schema/enums.schema";
import { SCOPE_DESCRIPTIONS, type TApiScope } from "@/types/auth.types";

/** Personal API tokens: create (secret shown once), list, revoke. */
export function ApiTokens() {
  const tokens = useTokens();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<TApiScope[]>(["retrieval:read"]);
  const [days, setDays] = useState(90);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateToken({
    onSuccess: (r) => {
      setSecret(r.token);
      setName("");
    },
    onError: (e) => setError(e.message),
  });
  const revoke = useRevokeToken();

  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Create a token</CardTitle>
          <CardDescription>
            Send it as <code>Authorization: Bearer …</code>. See the in-app{" "}
            <a className="text-primary underline" href="/api-reference" data-testid="api-reference-link">
              API reference
            </a>{" "}
            for every endpoint, its scopes and examples.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            className="flex flex-col gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              setError(null);
              const parsed = CreateApiTokenRequestSchema.safeParse({ name, scopes, expiresInDays: days });
              if (!parsed.success) return setError(parsed.error.issues.map((i) => i.message).join("; "));
              create.mutate(parsed.data);
            }}
          >
            <div className="grid gap-3 sm:grid-cols-3">
              <div className="flex flex-col gap-1.5 sm:col-span-2">
                <Label htmlFor="token-name">Name</Label>
                <Input
                  id="token-name"
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  placeholder="e.g. School LMS"
                  data-testid="token-name"
                />
              </div>
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="token-days">Expires in (days)</Label>
                <Input
                  id="token-days"
                  type="number"
                  min={1}
                  max={365}
                  value={days}
                  onChange={(e) => setDays(Number(e.target.value) || 90)}
                />
              </div>
            </div>
            <fieldset className="flex flex-wrap gap-4 text-sm">
              <legend className="mb-1 font-medium">Scopes</legend>
              {API_SCOPES.map((s) => (
                <div key={s} className="flex items-center gap-1.5">
                  <Checkbox
                    id={`scope-${s}`}
                    checked={scopes.includes(s)}
                    onCheckedChange={(v) =>
                      setScopes((cur) => (v ? [...cur, s] : cur.filter((x) => x !== s)))
                    }
                  />
                  <Label htmlFor={`scope-${s}`} className="font-normal" title={SCOPE_DESCRIPTIONS[s]}>
                    {s}
                  </Label>
                </div>
              ))}
            </fieldset>
            <Button
              type="submit"
              className="self-start"
              disabled={create.isPending}
              data-testid="token-create"
            >
              Create token
            </Button>
          </form>
          {error && (
            <Alert variant="destructive" className="mt-3">
              {error}
            </Alert>
          )}
          {secret && (
            <Alert className="mt-3" data-testid="token-secret">
              Copy this token now; it will not be shown again:{" "}
              <code className="break-all font-mono">{secret}</code>
            </Alert>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Your tokens</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 text-sm">
          {tokens.data?.tokens.length === 0 && <p className="text-muted-foreground">No tokens yet.</p>}
          {tokens.data?.tokens.map((t) => (
            <div key={t.id} className="flex flex-wrap items-center gap-2 border-t border-border py-2">
              <span className="font-medium">{t.name}</span>
              <code className="text-xs">{t.prefix}…</code>
              {t.scopes.map((s) => (
                <Badge key={s} variant="outline">
                  {s}
                </Badge>
              ))}
              <span className="text-xs text-muted-foreground">
                {t.revoked_at
                  ? "revoked"
                  : t.expires_at
                    ? `expires ${new Date(t.expires_at).toLocaleDateString()}`
                    : "no expiry"}
                {t.last_used_at ? ` · last used ${new Date(t.last_used_at).toLocaleString()}` : ""}
              </span>
              {!t.revoked_at && (
                <Button size="sm" variant="ghost" className="ml-auto" onClick={() => revoke.mutate(t.id)}>
                  Revoke
                </Button>
              )}
            </div>
          ))}
        </CardContent>
      </Card>
    </div>
  );
}
