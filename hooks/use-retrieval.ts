"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import type { TEnhanceQueryRequest, TRetrievalQueryInput } from "@/schema/retrieval.schema";
import { getFacets, postRetrievalEnhanceQuery, postRetrievalQuery } from "@/services/retrieval.services";

export function useFacets() {
  return useQuery({ queryKey: ["facets"], queryFn: getFacets });
}

/** Retrieval as a cached query: the same request (filters + query + knobs) is served from cache. */
export function useRetrievalQuery(request: TRetrievalQueryInput | null) {
  return useQuery({
    queryKey: ["retrieval", request],
    queryFn: () => postRetrievalQuery(request!),
    enabled: request !== null,
    retry: false,
  });
}

export function useRetrievalEnhancement() {
  return useMutation({ mutationFn: (body: TEnhanceQueryRequest) => postRetrievalEnhanceQuery(body) });
}
