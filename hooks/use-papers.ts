// No "use client": server pages import the key factory to fill the cache (lib/query/prefetch.ts);
// the TanStack hooks used here are client modules of their own.

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TAddItems, TPaperCreateInput } from "@/schema/paper.schema";
import {
  deletePaper,
  getPaper,
  getPapers,
  getPyqCheck,
  getQuestions,
  postPaper,
  postPaperItems,
} from "@/services/papers.services";

export type TQuestionSearch = { type?: string; bloomLevel?: string; chapter?: string; q?: string };

/**
 * Every papers query key. `list` is what creating, saving or deleting a paper makes stale; a
 * paper's `detail` is replaced with the server's answer instead of refetched.
 */
export const paperKeys = {
  all: ["papers"] as const,
  list: () => [...paperKeys.all, "list"] as const,
  detail: (id: string) => [...paperKeys.all, "detail", id] as const,
  pyqCheck: (id: string, version: number | undefined) =>
    [...paperKeys.all, "pyq-check", id, version] as const,
  questionSearch: (params: TQuestionSearch) => ["questions", "search", params] as const,
};

export const paperQuery = (id: string) =>
  queryOptions({ queryKey: paperKeys.detail(id), queryFn: () => getPaper(id), retry: false });

export function usePapers() {
  return useQuery({ queryKey: paperKeys.list(), queryFn: getPapers });
}

export function useCreatePaper() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TPaperCreateInput) => postPaper(body),
    onSuccess: (res) => {
      qc.setQueryData(paperKeys.detail(res.paper.id), res);
      void qc.invalidateQueries({ queryKey: paperKeys.list() });
    },
  });
}

export function useDeletePaper() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deletePaper(id),
    onSuccess: () => void qc.invalidateQueries({ queryKey: paperKeys.list() }),
  });
}

/** "Add to paper": copies saved questions into a paper (the server places them by type and marks). */
export function useAddToPaper() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ paperId, ...body }: TAddItems & { paperId: string }) => postPaperItems(paperId, body),
    onSuccess: (res) => {
      qc.setQueryData(paperKeys.detail(res.paper.id), { ok: true, paper: res.paper, check: res.check });
      void qc.invalidateQueries({ queryKey: paperKeys.list() });
    },
  });
}

export function useQuestionSearch(params: TQuestionSearch) {
  return useQuery({ queryKey: paperKeys.questionSearch(params), queryFn: () => getQuestions(params) });
}

export function usePyqCheck(paperId: string, version: number | undefined) {
  return useQuery({
    queryKey: paperKeys.pyqCheck(paperId, version),
    queryFn: () => getPyqCheck(paperId),
    enabled: version !== undefined,
  });
}
