import { meContract } from "@/contracts/auth.contract";
import { findAccount } from "@/lib/auth/accounts";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/route";

export const GET = handle(meContract, async ({ principal }) => {
  const user = await findAccount(await getDb(), principal.userId);
  if (!user) throw new AppError("unauthorized", "This account no longer exists");
  return { ok: true as const, user, via: principal.via, scopes: principal.scopes };
});
