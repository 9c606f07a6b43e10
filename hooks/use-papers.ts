"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TAddItems, TPaperCreateInput } from "@/schema/paper.schema";
import {
  deletePaper,
  getPapers,
  getPyqCheck,
  getQuestions,
  postPaper,
  postPaperItems,
} from "@/services/papers.services";

export function usePapers() {
  return useQuery({ queryKey: ["papers"], queryFn: getPapers });
}

export function useCreatePaper() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TPaperCreateInput) => postPaper(body),
    onSuccess: (res) => {
      qc.setQueryData(["paper", res.paper.id], res);
      void qc.invalidateQueries({ queryKey: ["papers"] });
    },
  });
}

export function useDeletePaper() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deletePaper(id),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["papers"] }),
  });
}

/** "Add to paper": copies saved questions into a paper (the server places them by type and marks). */
export function useAddToPaper() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ paperId, ...body }: TAddItems & { paperId: string }) => postPaperItems(paperId, body),
    onSuccess: (res) => {
      qc.setQueryData(["paper", res.paper.id], { ok: true, paper: res.paper, check: res.check });
      void qc.invalidateQueries({ queryKey: ["papers"] });
    },
  });
}

export function useQuestionSearch(params: {
  type?: string;
  bloomLevel?: string;
  chapter?: string;
  q?: string;
}) {
  return useQuery({ queryKey: ["questions", params], queryFn: () => getQuestions(params) });
}

export function usePyqCheck(paperId: string, version: number | undefined) {
  return useQuery({
    queryKey: ["pyq-check", paperId, version],
    queryFn: () => getPyqCheck(paperId),
    enabled: version !== undefined,
  });
}
