import type { TResponse } from "@/contracts/contract";
import { searchQuestionsContract } from "@/contracts/generation.contract";
import {
  addPaperItemsContract,
  createPaperContract,
  deletePaperContract,
  exportPaperContract,
  getPaperContract,
  listPapersContract,
  putPaperContract,
  pyqCheckContract,
  regenerateItemContract,
  swapItemContract,
} from "@/contracts/papers.contract";
import type { TQuestionSearchQuery } from "@/schema/generation.schema";
import type { TAddItems, TPaperCreateInput, TPaperUpdate } from "@/schema/paper.schema";
import type { EExportFormat, EExportPart } from "@/types/paper.types";
import { apiFetch, contractUrl } from "./http";

export type IPaperResponse = TResponse<typeof getPaperContract>;

export const getPapers = () => apiFetch(listPapersContract, {});

export const getPaper = (id: string) => apiFetch(getPaperContract, { params: { id } });

export const postPaper = (body: TPaperCreateInput) => apiFetch(createPaperContract, { body });

export const putPaper = (id: string, body: TPaperUpdate) =>
  apiFetch(putPaperContract, { params: { id }, body });

export const deletePaper = (id: string) => apiFetch(deletePaperContract, { params: { id } });

export const postPaperItems = (id: string, body: TAddItems) =>
  apiFetch(addPaperItemsContract, { params: { id }, body });

export const postSwapItem = (id: string, itemId: string, version: number) =>
  apiFetch(swapItemContract, { params: { id, itemId }, body: { version } });

export const postRegenerateItem = (id: string, itemId: string, version: number) =>
  apiFetch(regenerateItemContract, { params: { id, itemId }, body: { version } });

export const getPyqCheck = (id: string) => apiFetch(pyqCheckContract, { params: { id } });

export const getQuestions = (params: { type?: string; bloomLevel?: string; chapter?: string; q?: string }) =>
  apiFetch(searchQuestionsContract, { query: params as TQuestionSearchQuery });

/** Where the browser downloads an export from (same-origin GET with the session cookie). */
export const exportUrl = (id: string, format: EExportFormat, part: EExportPart = "paper", draft = false) =>
  contractUrl(exportPaperContract, { id }, { format, part, ...(draft ? { draft: "true" } : {}) });
