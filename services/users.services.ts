import {
  createUserContract,
  deleteUserContract,
  listUsersContract,
  listUserTokensContract,
  resetPasswordContract,
  revokeUserTokenContract,
  updateUserContract,
} from "@/contracts/users.contract";
import type { TCreateUserRequest, TDeleteUserQuery, TUpdateUserRequest } from "@/schema/users.schema";
import { apiFetch } from "./http";

export const getUsers = () => apiFetch(listUsersContract, {});
export const postUser = (body: TCreateUserRequest) => apiFetch(createUserContract, { body });
export const patchUser = (id: string, body: TUpdateUserRequest) =>
  apiFetch(updateUserContract, { params: { id }, body });
export const postUserPasswordReset = (id: string) => apiFetch(resetPasswordContract, { params: { id } });
export const deleteUser = (id: string, query: TDeleteUserQuery) =>
  apiFetch(deleteUserContract, { params: { id }, query });
export const getUserTokens = (id: string) => apiFetch(listUserTokensContract, { params: { id } });
export const deleteUserToken = (id: string, tokenId: string) =>
  apiFetch(revokeUserTokenContract, { params: { id, tokenId } });
