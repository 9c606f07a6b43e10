import "server-only";
import { cookies } from "next/headers";
import { getDb } from "@/lib/db";
import type { ISessionUser } from "@/types/auth.types";
import { findAccount } from "./accounts";
import { principalFromJwt, SESSION_COOKIE } from "./principal";

/** The signed-in user for server components and layouts, or null (never throws). */
export async function getSessionUser(): Promise<ISessionUser | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  try {
    const principal = await principalFromJwt(token, "session");
    return await findAccount(await getDb(), principal.userId);
  } catch {
    return null;
  }
}
