"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteToken, getTokens, postToken } from "@/services/tokens.services";

/** Every API-token query key. */
export const tokenKeys = {
  all: ["tokens"] as const,
  list: () => [...tokenKeys.all, "list"] as const,
};

export function useTokens() {
  return useQuery({ queryKey: tokenKeys.list(), queryFn: getTokens });
}

export function useCreateToken(options: {
  onSuccess: (res: Awaited<ReturnType<typeof postToken>>) => void;
  onError: (e: Error) => void;
}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: postToken,
    onSuccess: (res) => {
      options.onSuccess(res);
      void qc.invalidateQueries({ queryKey: tokenKeys.list() });
    },
    onError: options.onError,
  });
}

export function useRevokeToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteToken,
    onSuccess: () => qc.invalidateQueries({ queryKey: tokenKeys.list() }),
  });
}
