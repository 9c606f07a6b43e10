import { loginContract, logoutContract } from "@/contracts/auth.contract";
import type { TLoginRequest } from "@/schema/auth.schema";
import { apiFetch } from "./http";

export const postLogin = (body: TLoginRequest) => apiFetch(loginContract, { body });
export const postLogout = () => apiFetch(logoutContract, {});
