import { findAccount } from "@/lib/auth/accounts";
import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/handler";

export const GET = handle("auth.me", async (request) => {
  const principal = await authorize(request, { scope: null });
  const user = await findAccount(await getDb(), principal.userId);
  if (!user) throw new AppError("unauthorized", "This account no longer exists");
  return Response.json({ ok: true, user, via: principal.via, scopes: principal.scopes });
});
