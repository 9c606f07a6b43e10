import type { TRetrievalItem } from "@/schema/retrieval.schema";

/**
 * The passages in the order of the relevance shown beside each (0.89, 0.84, 0.78 …), highest
 * first; equal relevance keeps the search's ranking (the sort is stable). The API keeps the
 * ranker's order (an LLM reranker's judgement, the eval's metric); the teacher reads the number.
 */
export function orderByRelevance<T extends Pick<TRetrievalItem, "relevance">>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.relevance - a.relevance);
}
