import type { TCreateApiTokenRequest } from "@/schema/auth.schema";
import type { TApiScope } from "@/types/auth.types";
import { apiFetch } from "./http";

export interface IApiTokenInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: TApiScope[];
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export const getTokens = () => apiFetch<{ ok: true; tokens: IApiTokenInfo[] }>("/api/tokens");
export const postToken = (body: TCreateApiTokenRequest) =>
  apiFetch<{ ok: true; token: string; tokenInfo: IApiTokenInfo }>("/api/tokens", {
    method: "POST",
    json: body,
  });
export const deleteToken = (id: string) => apiFetch<{ ok: true }>(`/api/tokens/${id}`, { method: "DELETE" });
