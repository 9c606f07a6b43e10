import {
  EnhanceQueryRequestSchema,
  EnhanceQueryResponseSchema,
  FacetsResponseSchema,
  RetrievalQueryRequestSchema,
  RetrievalQueryResponseSchema,
} from "@/schema/retrieval.schema";
import { defineContract } from "./contract";

export const retrievalQueryContract = defineContract({
  name: "retrieval.query",
  method: "POST",
  path: "/api/retrieval/query",
  summary:
    "Hybrid retrieval (BM25 + vector) with classification, a query planner (sub-queries, variants, HyDE, chapter focus), session follow-ups, rerank, calibrated relevance and refusal of out-of-scope queries",
  tag: "retrieval",
  auth: { kind: "user", scope: "retrieval:read" },
  body: RetrievalQueryRequestSchema,
  rateLimit: "retrieval",
  response: RetrievalQueryResponseSchema,
  example: {
    filters: { board: "OpenStax", grade: "11", subject: "Biology" },
    query: "Explain how osmosis moves water across a membrane",
    topK: 8,
  },
});

export const enhanceQueryContract = defineContract({
  name: "retrieval.enhance",
  method: "POST",
  path: "/api/retrieval/enhance-query",
  summary: "Suggest an enhanced query with explained, highlighted added terms",
  tag: "retrieval",
  auth: { kind: "user", scope: "retrieval:read" },
  body: EnhanceQueryRequestSchema,
  rateLimit: "retrieval",
  response: EnhanceQueryResponseSchema,
  example: {
    rawQuery: "diffusion across membranes",
    filters: { board: "OpenStax", grade: "11", subject: "Biology" },
    bloomTargets: ["Analyze"],
  },
});

export const facetsContract = defineContract({
  name: "retrieval.facets",
  method: "GET",
  path: "/api/retrieval/facets",
  summary: "Boards, classes, subjects, resource types and chapters you can search",
  tag: "retrieval",
  auth: { kind: "user", scope: "retrieval:read" },
  response: FacetsResponseSchema,
});
