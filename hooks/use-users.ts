"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TCreateUserRequest, TDeleteUserQuery } from "@/schema/users.schema";
import {
  deleteUser,
  deleteUserToken,
  getUsers,
  getUserTokens,
  patchUser,
  postUser,
  postUserPasswordReset,
} from "@/services/users.services";
import type { ERole } from "@/types/curriculum.types";

export const usersQuery = queryOptions({ queryKey: ["users"], queryFn: getUsers });

/** One account's API tokens, under the users key (a change to the account refreshes them too). */
export const userTokensQuery = (id: string) =>
  queryOptions({ queryKey: ["users", id, "tokens"], queryFn: () => getUserTokens(id) });

export function useUsers() {
  return useQuery(usersQuery);
}

export function useAddUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateUserRequest) => postUser(body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}

export function useSetUserRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: ERole }) => patchUser(id, { role }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}

export function useResetUserPassword() {
  return useMutation({ mutationFn: (id: string) => postUserPasswordReset(id) });
}

/** Disable (true) or re-enable (false) an account. */
export function useSetUserDisabled() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) => patchUser(id, { disabled }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, query }: { id: string; query: TDeleteUserQuery }) => deleteUser(id, query),
    onSuccess: () => void qc.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}

export function useUserTokens(id: string, enabled: boolean) {
  return useQuery({ ...userTokensQuery(id), enabled });
}

export function useRevokeUserToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tokenId }: { id: string; tokenId: string }) => deleteUserToken(id, tokenId),
    onSuccess: (_r, { id }) => void qc.invalidateQueries({ queryKey: userTokensQuery(id).queryKey }),
  });
}
