import { authenticatePassword } from "@/lib/auth/accounts";
import { beginLoginAttempt } from "@/lib/auth/login-throttle";
import { SESSION_COOKIE } from "@/lib/auth/principal";
import { issueSession } from "@/lib/auth/sessions";
import { getConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle, parseJson } from "@/lib/http/handler";
import { assertSameOrigin, clientAddress } from "@/lib/http/origin";
import { LoginRequestSchema, type TLoginResponse } from "@/schema/auth.schema";

/**
 * Local accounts (embedded mode). With Supabase Auth, clients sign in there and send its JWT.
 * Only our own pages may sign a browser in (no login CSRF); guesses are throttled per account
 * and per address (429 + Retry-After).
 */
export const POST = handle("auth.login", async (request) => {
  assertSameOrigin(request);
  const body = await parseJson(request, LoginRequestSchema, 16 * 1024);
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
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return Response.json(payload, {
    headers: {
      "Set-Cookie": `${SESSION_COOKIE}=${session.accessToken}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${session.expiresIn}${secure}`,
      "Cache-Control": "no-store",
    },
  });
});
