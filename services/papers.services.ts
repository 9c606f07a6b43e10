import type { TAddItems, TPaperCreateInput, TPaperUpdate } from "@/schema/paper.schema";
import type { IQuestionSummary } from "@/types/generation.types";
import type {
  EExportFormat,
  EExportPart,
  IPaper,
  IPaperCheck,
  IPaperSummary,
  IPyqMatch,
} from "@/types/paper.types";
import { apiFetch } from "./http";

export interface IPaperResponse {
  ok: true;
  paper: IPaper;
  check: IPaperCheck;
}

export const getPapers = () => apiFetch<{ ok: true; papers: IPaperSummary[] }>("/api/papers");

export const getPaper = (id: string) => apiFetch<IPaperResponse>(`/api/papers/${id}`);

export const postPaper = (body: TPaperCreateInput) =>
  apiFetch<IPaperResponse>("/api/papers", { method: "POST", json: body });

export const putPaper = (id: string, body: TPaperUpdate) =>
  apiFetch<IPaperResponse>(`/api/papers/${id}`, { method: "PUT", json: body });

export const deletePaper = (id: string) => apiFetch<{ ok: true }>(`/api/papers/${id}`, { method: "DELETE" });

export const postPaperItems = (id: string, body: TAddItems) =>
  apiFetch<IPaperResponse & { added: number; skipped: number }>(`/api/papers/${id}/items`, {
    method: "POST",
    json: body,
  });

export const postSwapItem = (id: string, itemId: string, version: number) =>
  apiFetch<IPaperResponse>(`/api/papers/${id}/items/${itemId}/swap`, { method: "POST", json: { version } });

export const postRegenerateItem = (id: string, itemId: string, version: number) =>
  apiFetch<IPaperResponse>(`/api/papers/${id}/items/${itemId}/regenerate`, {
    method: "POST",
    json: { version },
  });

export const getPyqCheck = (id: string) =>
  apiFetch<{ ok: true; pyqChunks: number; threshold: number; matches: Record<string, IPyqMatch> }>(
    `/api/papers/${id}/pyq-check`,
  );

export const getQuestions = (params: {
  type?: string;
  bloomLevel?: string;
  chapter?: string;
  q?: string;
}) => {
  const search = new URLSearchParams(Object.entries(params).filter(([, v]) => v) as [string, string][]);
  return apiFetch<{ ok: true; questions: IQuestionSummary[] }>(`/api/questions?${search}`);
};

/** Where the browser downloads an export from (same-origin GET with the session cookie). */
export const exportUrl = (id: string, format: EExportFormat, part: EExportPart = "paper") =>
  `/api/papers/${id}/export?format=${format}&part=${part}`;
