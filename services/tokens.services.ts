import type { TCreateApiTokenRequest } from "@/schema/auth.schema";
import type { IApiTokenInfo } from "@/types/auth.types";
import { apiFetch } from "./http";

export const getTokens = () => apiFetch<{ ok: true; tokens: IApiTokenInfo[] }>("/api/tokens");
export const postToken = (body: TCreateApiTokenRequest) =>
  apiFetch<{ ok: true; token: string; tokenInfo: IApiTokenInfo }>("/api/tokens", {
    method: "POST",
    json: body,
  });
export const deleteToken = (id: string) => apiFetch<{ ok: true }>(`/api/tokens/${id}`, { method: "DELETE" });
