"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert, Skeleton } from "@/components/ui/misc";
import { useAddUser, useResetUserPassword, useSetUserRole, useUsers } from "@/hooks/use-users";
import { CreateUserRequestSchema } from "@/schema/users.schema";
import type { IAccountSummary } from "@/types/auth.types";
import { type ERole, ROLES } from "@/types/curriculum.types";

const ROLE_LABEL: Record<ERole, string> = { admin: "Curriculum admin", teacher: "Teacher" };

/** A password the admin must hand over: shown once, with whom it belongs to. */
interface IIssuedPassword {
  email: string;
  password: string;
}

/** The admin's Users page: add teachers and admins, change roles, reset passwords. */
export function Users({ currentUserId }: { currentUserId: string }) {
  const users = useUsers();
  const [issued, setIssued] = useState<IIssuedPassword | null>(null);
  if (users.isPending) return <Skeleton className="h-40" />;
  if (users.error) return <Alert variant="destructive">{users.error.message}</Alert>;
  const local = users.data.mode === "local";
  return (
    <div className="flex flex-col gap-4">
      {local ? (
        <AddUserCard onIssued={setIssued} />
      ) : (
        <Alert data-testid="supabase-accounts">
          Accounts live in Supabase Auth: invite teachers and set their role (<code>app_metadata.role</code>:{" "}
          <code>admin</code> or <code>teacher</code>) in the Supabase dashboard. They appear here after their
          first sign-in.
        </Alert>
      )}
      {issued && (
        <Alert data-testid="issued-password">
          Give <strong>{issued.email}</strong> this password (it will not be shown again):{" "}
          <code className="font-mono" data-testid="issued-password-value">
            {issued.password}
          </code>
        </Alert>
      )}
      <AccountsCard
        accounts={users.data.users}
        editable={local}
        currentUserId={currentUserId}
        onIssued={setIssued}
      />
    </div>
  );
}

function AddUserCard({ onIssued }: { onIssued: (p: IIssuedPassword) => void }) {
  const add = useAddUser();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<ERole>("teacher");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Add an account</CardTitle>
        <CardDescription>
          Leave the password empty to generate one; you will see it once, to hand to the teacher.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-3 sm:grid-cols-4 sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            const parsed = CreateUserRequestSchema.safeParse({
              email,
              role,
              password: password || undefined,
            });
            if (!parsed.success) return setError(parsed.error.issues.map((i) => i.message).join("; "));
            add.mutate(parsed.data, {
              onSuccess: (r) => {
                onIssued({ email: r.user.email, password: r.password ?? password });
                setEmail("");
                setPassword("");
              },
              onError: (err) => setError(err.message),
            });
          }}
        >
          <div className="flex flex-col gap-1.5 sm:col-span-2">
            <Label htmlFor="user-email">Email</Label>
            <Input
              id="user-email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="user-email-input"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="user-role">Role</Label>
            <NativeSelect
              id="user-role"
              value={role}
              onChange={(e) => setRole(e.target.value as ERole)}
              data-testid="user-role-input"
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABEL[r]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="user-password">Password (optional)</Label>
            <Input
              id="user-password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          <Button type="submit" className="self-start" disabled={add.isPending} data-testid="user-add">
            Add account
          </Button>
        </form>
        {error && (
          <Alert variant="destructive" className="mt-3">
            {error}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

function AccountsCard(props: {
  accounts: IAccountSummary[];
  editable: boolean;
  currentUserId: string;
  onIssued: (p: IIssuedPassword) => void;
}) {
  const setRole = useSetUserRole();
  const reset = useResetUserPassword();
  const [error, setError] = useState<string | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Accounts</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        {error && <Alert variant="destructive">{error}</Alert>}
        {props.accounts.map((a) => (
          <div
            key={a.id}
            className="flex flex-wrap items-center gap-2 border-t border-border py-2"
            data-testid="user-row"
            data-email={a.email}
          >
            <span className="font-medium">{a.email}</span>
            {a.id === props.currentUserId && <Badge variant="outline">you</Badge>}
            {props.editable ? (
              <NativeSelect
                aria-label={`Role of ${a.email}`}
                className="ml-auto w-44"
                value={a.role}
                disabled={setRole.isPending}
                onChange={(e) =>
                  setRole.mutate(
                    { id: a.id, role: e.target.value as ERole },
                    { onError: (err) => setError(err.message), onSuccess: () => setError(null) },
                  )
                }
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABEL[r]}
                  </option>
                ))}
              </NativeSelect>
            ) : (
              <Badge className="ml-auto">{ROLE_LABEL[a.role]}</Badge>
            )}
            {props.editable && (
              <Button
                size="sm"
                variant="ghost"
                disabled={reset.isPending}
                onClick={() =>
                  reset.mutate(a.id, {
                    onSuccess: (r) => props.onIssued({ email: r.user.email, password: r.password }),
                    onError: (err) => setError(err.message),
                  })
                }
              >
                Reset password
              </Button>
            )}
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
