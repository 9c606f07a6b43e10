import { createTokenContract, listTokensContract, revokeTokenContract } from "@/contracts/auth.contract";
import type { TCreateApiTokenRequest } from "@/schema/auth.schema";
import { apiFetch } from "./http";

export const getTokens = () => apiFetch(listTokensContract, {});
export const postToken = (body: TCreateApiTokenRequest) => apiFetch(createTokenContract, { body });
export const deleteToken = (id: string) => apiFetch(revokeTokenContract, { params: { id } });
