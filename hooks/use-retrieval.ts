// No "use client": server pages import the key factory to fill the cache (lib/query/prefetch.ts);
// the TanStack hooks used here are client modules of their own.

import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { TEnhanceQueryRequest, TRetrievalQueryInput } from "@/schema/retrieval.schema";
import { getFacets, postRetrievalEnhanceQuery, postRetrievalQuery } from "@/services/retrieval.services";

/** Every retrieval query key: components and other hooks build keys here, never as literals. */
export const retrievalKeys = {
  all: ["retrieval"] as const,
  facets: () => [...retrievalKeys.all, "facets"] as const,
  answer: (request: TRetrievalQueryInput | null) => [...retrievalKeys.all, "answer", request] as const,
};

/** What a retrieval answers, as the service returns it. */
export type TRetrievalAnswer = Awaited<ReturnType<typeof postRetrievalQuery>>;

export const facetsQuery = () => queryOptions({ queryKey: retrievalKeys.facets(), queryFn: getFacets });

export function useFacets() {
  return useQuery(facetsQuery());
}

/** Retrieval as a cached query: the same request (filters + query + knobs) is served from cache. */
export function useRetrievalQuery(request: TRetrievalQueryInput | null) {
  return useQuery({
    queryKey: retrievalKeys.answer(request),
    queryFn: () => postRetrievalQuery(request!),
    enabled: request !== null,
    retry: false,
  });
}

export function useRetrievalEnhancement() {
  return useMutation({ mutationFn: (body: TEnhanceQueryRequest) => postRetrievalEnhanceQuery(body) });
}
