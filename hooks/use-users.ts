"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TCreateUserRequest } from "@/schema/users.schema";
import { getUsers, patchUser, postUser, postUserPasswordReset } from "@/services/users.services";
import type { ERole } from "@/types/curriculum.types";

export const usersQuery = queryOptions({ queryKey: ["users"], queryFn: getUsers });

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
