import { authenticate, SESSION_COOKIE } from "@/lib/auth/principal";
import { revokeSession } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/handler";

const CLEARED = `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;

/**
 * Ends the caller's session: its row is revoked, so the same JWT stops working everywhere (cookie
 * or bearer), not only in this browser. Without a live session it just clears the cookie.
 */
export const POST = handle("auth.logout", async (request) => {
  try {
    const principal = await authenticate(request);
    if (principal.sessionId) await revokeSession(await getDb(), principal.sessionId);
  } catch (err) {
    // A cross-site logout is refused; an expired or already-ended session is simply signed out.
    if (!(err instanceof AppError) || err.code !== "unauthorized") throw err;
  }
  return Response.json({ ok: true }, { headers: { "Set-Cookie": CLEARED, "Cache-Control": "no-store" } });
});
