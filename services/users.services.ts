import type { TCreateUserRequest, TUpdateUserRequest } from "@/schema/users.schema";
import type { IAccountSummary, ISessionUser, TAccountsMode } from "@/types/auth.types";
import { apiFetch } from "./http";

export const getUsers = () =>
  apiFetch<{ ok: true; mode: TAccountsMode; users: IAccountSummary[] }>("/api/users");
export const postUser = (body: TCreateUserRequest) =>
  apiFetch<{ ok: true; user: ISessionUser; password?: string }>("/api/users", { method: "POST", json: body });
export const patchUser = (id: string, body: TUpdateUserRequest) =>
  apiFetch<{ ok: true; user: ISessionUser }>(`/api/users/${id}`, { method: "PATCH", json: body });
export const postUserPasswordReset = (id: string) =>
  apiFetch<{ ok: true; user: ISessionUser; password: string }>(`/api/users/${id}/password`, {
    method: "POST",
  });
