import { authenticatePassword } from "@/lib/auth/accounts";
import { SESSION_TTL_SECONDS, signAccessToken } from "@/lib/auth/jwt";
import { SESSION_COOKIE } from "@/lib/auth/principal";
import { getConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle, parseJson } from "@/lib/http/handler";
import { LoginRequestSchema, type TLoginResponse } from "@/schema/auth.schema";

/** Local accounts (embedded mode). With Supabase Auth, clients sign in there and send its JWT. */
export const POST = handle("auth.login", async (request) => {
  const body = await parseJson(request, LoginRequestSchema, 16 * 1024);
  if (getConfig().auth.issuer === "supabase") {
    throw new AppError(
      "bad_request",
      "Sign in through Supabase Auth and send its access token as a Bearer token",
    );
  }
  const user = await authenticatePassword(await getDb(), body.email, body.password);
  const accessToken = await signAccessToken({ sub: user.id, email: user.email, appRole: user.role });
  const payload: TLoginResponse = { ok: true, user, accessToken, expiresIn: SESSION_TTL_SECONDS };
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return Response.json(payload, {
    headers: {
      "Set-Cookie": `${SESSION_COOKIE}=${accessToken}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_SECONDS}${secure}`,
      "Cache-Control": "no-store",
    },
  });
});
