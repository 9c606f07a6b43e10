import {
  createUserContract,
  listUsersContract,
  resetPasswordContract,
  updateUserContract,
} from "@/contracts/users.contract";
import type { TCreateUserRequest, TUpdateUserRequest } from "@/schema/users.schema";
import { apiFetch } from "./http";

export const getUsers = () => apiFetch(listUsersContract, {});
export const postUser = (body: TCreateUserRequest) => apiFetch(createUserContract, { body });
export const patchUser = (id: string, body: TUpdateUserRequest) =>
  apiFetch(updateUserContract, { params: { id }, body });
export const postUserPasswordReset = (id: string) => apiFetch(resetPasswordContract, { params: { id } });
