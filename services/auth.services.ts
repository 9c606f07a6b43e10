import type { TLoginRequest, TLoginResponse } from "@/schema/auth.schema";
import { apiFetch } from "./http";

export const postLogin = (body: TLoginRequest) =>
  apiFetch<TLoginResponse>("/api/auth/login", { method: "POST", json: body });
export const postLogout = () => apiFetch<{ ok: true }>("/api/auth/logout", { method: "POST" });
