import type {
  TEnhanceQueryRequest,
  TEnhanceQueryResponse,
  TFacetsResponse,
  TRetrievalQueryInput,
  TRetrievalQueryResponse,
} from "@/schema/retrieval.schema";
import { apiFetch } from "./http";

export const postRetrievalQuery = (body: TRetrievalQueryInput) =>
  apiFetch<TRetrievalQueryResponse>("/api/retrieval/query", { method: "POST", json: body });

export const postRetrievalEnhanceQuery = (body: TEnhanceQueryRequest) =>
  apiFetch<TEnhanceQueryResponse>("/api/retrieval/enhance-query", { method: "POST", json: body });

export const getFacets = () => apiFetch<TFacetsResponse>("/api/retrieval/facets");
