import type { TQuestion } from "@/types/generation.types";

/** Case, spacing and punctuation do not make a question different. */
const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * Whether a regenerated question is the one it replaces: the same stem and, for an MCQ, the same
 * options in any order. "Regenerate" then says so instead of swapping a card for itself.
 */
export function sameQuestion(
  a: Pick<TQuestion, "promptText" | "type"> & { options?: readonly string[] },
  b: Pick<TQuestion, "promptText" | "type"> & { options?: readonly string[] },
): boolean {
  if (a.type !== b.type || norm(a.promptText) !== norm(b.promptText)) return false;
  const opts = (q: { options?: readonly string[] }) => (q.options ?? []).map(norm).sort().join("\n");
  return opts(a) === opts(b);
}
