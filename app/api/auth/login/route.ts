import { loginContract } from "@/contracts/auth.contract";
import { authenticatePassword } from "@/lib/auth/accounts";
import { beginLoginAttempt } from "@/lib/auth/login-throttle";
import { sessionCookie } from "@/lib/auth/principal";
import { issueSession } from "@/lib/auth/sessions";
import { getConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { clientAddress } from "@/lib/http/origin";
import { handle } from "@/lib/http/route";
import type { TLoginResponse } from "@/schema/auth.schema";

/**
 * Local accounts (embedded mode). With Supabase Auth, clients sign in there and send its JWT.
 * Only our own pages may sign a browser in (no login CSRF); guesses are throttled per account
 * and per address (429 + Retry-After).
 */
export const POST = handle(loginContract, async ({ request, body }) => {
  if (getConfig().auth.issuer === "supabase") {
    throw new AppError(
      "bad_request",
      "Sign in through Supabase Auth and send its access token as a Bearer token",
    );
  }
  const attempt = await beginLoginAttempt(body.email, clientAddress(request));
  const db = await getDb();
  const user = await authenticatePassword(db, body.email, body.password);
  await attempt.succeeded();
  const session = await issueSession(db, user);
  const payload: TLoginResponse = {
    ok: true,
    user,
    accessToken: session.accessToken,
    expiresIn: session.expiresIn,
  };
  const secure = new URL(request.url).protocol === "https:";
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", sessionCookie(session.accessToken, session.expiresIn, secure));
  return Response.json(payload, { headers });
});
