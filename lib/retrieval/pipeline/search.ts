import "server-only";
import type { TRetrievalQueryRequest } from "@/schema/retrieval.schema";
import type { EResourceType } from "@/types/curriculum.types";
import { hybridSearch, type IHybridRow } from "../store";
import type { IProbe, IRetrievalRun } from "./types";

/** The request's resource-type filter as a list without repeats, or null for every type. */
export function toResourceTypes(
  rt: TRetrievalQueryRequest["filters"]["resourceType"],
): EResourceType[] | null {
  if (!rt) return null;
  return Array.isArray(rt) ? [...new Set(rt)] : [rt];
}

export interface ISearchResult {
  rows: IHybridRow[];
  embedMs: number;
  sqlMs: number;
}

/** Stage 2a, search (once per probe of the gather stage): embed the probe's text and run the one hybrid SQL statement inside the scope. */
export async function searchProbe(run: IRetrievalRun, probe: IProbe): Promise<ISearchResult> {
  const { deps, req, settings, userId } = run;
  const { filters } = req;
  const t0 = performance.now();
  const keywordOnly = settings.legs === "keyword" || probe.legs === "keyword";
  const vectorOnly = settings.legs === "vector" || probe.legs === "vector";
  const embedding = keywordOnly ? null : await deps.embedder.embedQuery(probe.searchText);
  const embedMs = performance.now() - t0;
  const t1 = performance.now();
  const rows = await hybridSearch(deps.db, {
    userId,
    board: filters.board,
    grade: filters.grade,
    subject: filters.subject,
    resourceTypes: toResourceTypes(filters.resourceType),
    chapterNumber: probe.chapter,
    chapterName: filters.chapterName ?? null,
    documentIds: filters.documentIds ?? null,
    query: vectorOnly ? "" : probe.searchText,
    embedding,
    embeddingModel: deps.embedder.modelId,
    alpha: probe.alpha,
    limit: probe.limit,
    bm25: settings.bm25,
  });
  return { rows, embedMs, sqlMs: performance.now() - t1 };
}
