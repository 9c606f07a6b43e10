"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert, Skeleton } from "@/components/ui/misc";
import {
  useAddUser,
  useDeleteUser,
  useResetUserPassword,
  useRevokeUserToken,
  useSetUserDisabled,
  useSetUserRole,
  useUsers,
  useUserTokens,
} from "@/hooks/use-users";
import { CreateUserRequestSchema } from "@/schema/users.schema";
import type { IAccountSummary } from "@/types/auth.types";
import { type ERole, ROLES } from "@/types/curriculum.types";

const ROLE_LABEL: Record<ERole, string> = { admin: "Curriculum admin", teacher: "Teacher" };

/** A password the admin must hand over: shown once, with whom it belongs to. */
interface IIssuedPassword {
  email: string;
  password: string;
}

/**
 * The admin's Users page: add teachers and admins, change roles, reset passwords, disable,
 * re-enable and delete accounts, see and revoke their API tokens.
 */
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

type TPending =
  | { kind: "disable"; account: IAccountSummary }
  | { kind: "delete"; account: IAccountSummary }
  | { kind: "revoke"; account: IAccountSummary; tokenId: string; tokenName: string };

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function AccountsCard(props: {
  accounts: IAccountSummary[];
  editable: boolean;
  currentUserId: string;
  onIssued: (p: IIssuedPassword) => void;
}) {
  const setRole = useSetUserRole();
  const reset = useResetUserPassword();
  const setDisabled = useSetUserDisabled();
  const remove = useDeleteUser();
  const revoke = useRevokeUserToken();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState<TPending | null>(null);
  const [tokensOf, setTokensOf] = useState<string | null>(null);
  const [choice, setChoice] = useState<"transfer" | "delete" | null>(null);
  const [transferTo, setTransferTo] = useState("");
  const report = {
    onError: (err: Error) => {
      setError(err.message);
      setDone(null);
    },
  };
  const close = () => {
    setPending(null);
    setChoice(null);
    setTransferTo("");
  };
  const confirm = () => {
    if (!pending) return;
    const { account } = pending;
    if (pending.kind === "disable") {
      setDisabled.mutate(
        { id: account.id, disabled: true },
        {
          ...report,
          onSuccess: (r) => {
            setError(null);
            const ended = r.revoked
              ? ` (${count(r.revoked.sessions, "session")} and ${count(r.revoked.tokens, "API token")} ended)`
              : "";
            setDone(`${account.email} is disabled${ended}.${r.notice ? ` ${r.notice}.` : ""}`);
          },
        },
      );
    } else if (pending.kind === "revoke") {
      revoke.mutate(
        { id: account.id, tokenId: pending.tokenId },
        {
          ...report,
          onSuccess: () => setDone(`Token "${pending.tokenName}" of ${account.email} is revoked.`),
        },
      );
    } else if (choice) {
      remove.mutate(
        {
          id: account.id,
          query:
            choice === "transfer" ? { privateData: "transfer", to: transferTo } : { privateData: "delete" },
        },
        {
          ...report,
          onSuccess: (r) => {
            setError(null);
            const to = props.accounts.find((a) => a.id === r.movedTo)?.email ?? "you";
            const moved = `${count(r.moved.resources, "resource")}, ${count(r.moved.papers, "paper")} and ${count(r.moved.questionSets, "question set")} moved to ${to}`;
            const removed = `${count(r.removed.resources, "private resource")}, ${count(r.removed.papers, "paper")} and ${count(r.removed.questionSets, "question set")} deleted`;
            setDone(
              `${r.email} is deleted: ${r.privateData === "transfer" ? moved : `${removed}; ${moved}`}.${r.notice ? ` ${r.notice}.` : ""}`,
            );
          },
        },
      );
    }
    close();
  };
  const others = pending ? props.accounts.filter((a) => a.id !== pending.account.id) : [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Accounts</CardTitle>
        <CardDescription>
          Disabling signs the account out everywhere and revokes its API tokens; a password reset or a role
          change signs it out. Deleting asks what happens to its private resources and papers.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        {error && <Alert variant="destructive">{error}</Alert>}
        {done && <Alert data-testid="users-done">{done}</Alert>}
        {props.accounts.map((a) => {
          const self = a.id === props.currentUserId;
          return (
            <div
              key={a.id}
              className="flex flex-col border-t border-border py-2"
              data-testid="user-row"
              data-email={a.email}
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{a.email}</span>
                {self && <Badge variant="outline">you</Badge>}
                {a.disabledAt && (
                  <Badge variant="outline" data-testid="user-disabled">
                    disabled
                  </Badge>
                )}
                {props.editable ? (
                  <NativeSelect
                    aria-label={`Role of ${a.email}`}
                    className="ml-auto w-44"
                    value={a.role}
                    disabled={setRole.isPending}
                    onChange={(e) =>
                      setRole.mutate(
                        { id: a.id, role: e.target.value as ERole },
                        { ...report, onSuccess: () => setError(null) },
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
                        ...report,
                        onSuccess: (r) => props.onIssued({ email: r.user.email, password: r.password }),
                      })
                    }
                  >
                    Reset password
                  </Button>
                )}
                <Button
                  size="sm"
                  variant="ghost"
                  aria-expanded={tokensOf === a.id}
                  onClick={() => setTokensOf(tokensOf === a.id ? null : a.id)}
                  data-testid="user-tokens"
                >
                  API tokens
                </Button>
                {!self &&
                  (a.disabledAt ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={setDisabled.isPending}
                      onClick={() =>
                        setDisabled.mutate(
                          { id: a.id, disabled: false },
                          {
                            ...report,
                            onSuccess: (r) => {
                              setError(null);
                              setDone(`${a.email} is enabled again.${r.notice ? ` ${r.notice}.` : ""}`);
                            },
                          },
                        )
                      }
                      data-testid="user-enable"
                    >
                      Enable
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setPending({ kind: "disable", account: a })}
                      data-testid="user-disable"
                    >
                      Disable
                    </Button>
                  ))}
                {!self && (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-destructive"
                    onClick={() => setPending({ kind: "delete", account: a })}
                    data-testid="user-delete"
                  >
                    Delete
                  </Button>
                )}
              </div>
              {tokensOf === a.id && (
                <UserTokens
                  account={a}
                  onRevoke={(tokenId, tokenName) =>
                    setPending({ kind: "revoke", account: a, tokenId, tokenName })
                  }
                />
              )}
            </div>
          );
        })}
      </CardContent>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) close();
        }}
        title={
          pending?.kind === "disable"
            ? `Disable ${pending.account.email}?`
            : pending?.kind === "revoke"
              ? `Revoke the token "${pending.tokenName}"?`
              : `Delete ${pending?.account.email ?? ""}?`
        }
        confirmLabel={
          pending?.kind === "disable" ? "Disable" : pending?.kind === "revoke" ? "Revoke" : "Delete account"
        }
        destructive
        confirmDisabled={
          pending?.kind === "delete" && (choice === null || (choice === "transfer" && transferTo === ""))
        }
        onConfirm={confirm}
      >
        {pending?.kind === "disable" && (
          <p>
            They are signed out everywhere and their API tokens are revoked; they cannot sign in until you
            enable the account again (their old tokens stay revoked). Their resources and papers stay.
          </p>
        )}
        {pending?.kind === "revoke" && <p>Anything using this token stops working at once.</p>}
        {pending?.kind === "delete" && (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1">
              This cannot be undone. Their shared resources always stay (they move to the account below, or to
              you). What happens to their private resources, papers and question sets?
            </legend>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="private-data"
                checked={choice === "transfer"}
                onChange={() => setChoice("transfer")}
                data-testid="delete-transfer"
              />
              Transfer them to
              <NativeSelect
                aria-label="Account that receives them"
                className="w-60"
                value={transferTo}
                onChange={(e) => {
                  setChoice("transfer");
                  setTransferTo(e.target.value);
                }}
                data-testid="delete-transfer-to"
              >
                <option value="">choose an account…</option>
                {others.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.email}
                  </option>
                ))}
              </NativeSelect>
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="private-data"
                checked={choice === "delete"}
                onChange={() => setChoice("delete")}
                data-testid="delete-private"
              />
              Delete them
            </label>
          </fieldset>
        )}
      </ConfirmDialog>
    </Card>
  );
}

/** An account's API tokens as its admin sees them: no secrets, revocable. */
function UserTokens({
  account,
  onRevoke,
}: {
  account: IAccountSummary;
  onRevoke: (tokenId: string, name: string) => void;
}) {
  const tokens = useUserTokens(account.id, true);
  if (tokens.isPending) return <Skeleton className="mt-2 h-8" />;
  if (tokens.error) return <Alert variant="destructive">{tokens.error.message}</Alert>;
  if (tokens.data.tokens.length === 0) return <p className="mt-2 text-muted-foreground">No API tokens.</p>;
  return (
    <ul className="mt-2 flex flex-col gap-1 pl-4" aria-label={`API tokens of ${account.email}`}>
      {tokens.data.tokens.map((t) => {
        const expired = t.expires_at !== null && new Date(t.expires_at).getTime() <= Date.now();
        return (
          <li
            key={t.id}
            className="flex flex-wrap items-center gap-2"
            data-testid="user-token"
            data-name={t.name}
          >
            <span className="font-medium">{t.name}</span>
            <code className="text-xs">{t.prefix}…</code>
            <span className="text-muted-foreground">{t.scopes.join(", ")}</span>
            <span className="text-muted-foreground">
              {t.revoked_at
                ? "revoked"
                : expired
                  ? "expired"
                  : t.expires_at
                    ? `expires ${new Date(t.expires_at).toLocaleDateString()}`
                    : "never expires"}
            </span>
            {!t.revoked_at && !expired && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => onRevoke(t.id, t.name)}
                data-testid="user-token-revoke"
              >
                Revoke
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
