import { SESSION_COOKIE } from "@/lib/auth/principal";
import { handle } from "@/lib/http/handler";

export const POST = handle("auth.logout", async () =>
  Response.json(
    { ok: true },
    { headers: { "Set-Cookie": `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0` } },
  ),
);
