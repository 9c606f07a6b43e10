import { logoutContract } from "@/contracts/auth.contract";
import { authenticate, sessionCookie } from "@/lib/auth/principal";
import { revokeSession } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/route";

/**
 * Ends the caller's session: its row is revoked, so the same JWT stops working everywhere (cookie
 * or bearer), not only in this browser. Without a live session it just clears the cookie.
 */
export const POST = handle(logoutContract, async ({ request }) => {
  try {
    const principal = await authenticate(request);
    if (principal.sessionId) await revokeSession(await getDb(), principal.sessionId);
  } catch (err) {
    // A cross-site logout is refused; an expired or already-ended session is simply signed out.
    if (!(err instanceof AppError) || err.code !== "unauthorized") throw err;
  }
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", sessionCookie("", 0, false));
  return Response.json({ ok: true }, { headers });
});
