import { enhanceQueryContract, facetsContract, retrievalQueryContract } from "@/contracts/retrieval.contract";
import type { TEnhanceQueryRequest, TRetrievalQueryInput } from "@/schema/retrieval.schema";
import { apiFetch } from "./http";

export const postRetrievalQuery = (body: TRetrievalQueryInput) => apiFetch(retrievalQueryContract, { body });

export const postRetrievalEnhanceQuery = (body: TEnhanceQueryRequest) =>
  apiFetch(enhanceQueryContract, { body });

export const getFacets = () => apiFetch(facetsContract, {});
