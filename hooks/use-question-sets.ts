"use client";

import { useQuery } from "@tanstack/react-query";
import { listQuestionSets } from "@/services/generation.services";
import { generationKeys } from "./use-generation";

/** The caller's recent generated sets (newest first), for "Recent sets" on the Questions page. */
export const recentSetsKey = [...generationKeys.all, "recent"] as const;

export function useRecentSets(limit = 10) {
  return useQuery({
    queryKey: [...recentSetsKey, limit],
    queryFn: () => listQuestionSets(limit),
    select: (r) => r.sets,
  });
}
