import { terms } from "@/lib/text/tokenize";
import type { TRetrievalQueryRequest } from "@/schema/retrieval.schema";
import { type IFollowUp, isAboutExcluded, resolveFollowUp } from "../follow-up";
import type { IPassResult } from "./types";

/**
 * Stage 0, follow-ups: the request read against the session's earlier turns (follow-up.ts); the
 * resolved request carries the standalone query and any Bloom shift.
 */
export function applyFollowUp(request: TRetrievalQueryRequest): {
  followUp: IFollowUp;
  req: TRetrievalQueryRequest;
} {
  const followUp = resolveFollowUp(request.query, request.session?.turns ?? [], request.bloomTargets);
  if (!followUp.isFollowUp) return { followUp, req: request };
  return {
    followUp,
    req: {
      ...request,
      query: followUp.query,
      ...(followUp.bloomTargets ? { bloomTargets: followUp.bloomTargets } : {}),
    },
  };
}

/** Stage 6b, exclusions: passages about a topic the teacher left out ("not the calvin cycle") go. */
export function leaveOutExcluded(
  pass: IPassResult,
  excluded: readonly string[],
): { pass: IPassResult; excludedCount: number } {
  if (excluded.length === 0) return { pass, excludedCount: 0 };
  const kept = pass.candidates.filter(
    (c) => !isAboutExcluded({ content: c.row.content, sectionPath: c.row.section_path }, excluded, terms),
  );
  return { pass: { ...pass, candidates: kept }, excludedCount: pass.candidates.length - kept.length };
}
