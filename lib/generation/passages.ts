import type { IContextChunk } from "@/types/generation.types";
import { chunkKey, sectionKeyOf } from "./offline/knowledge/sentences";

/**
 * The passages a set stands on besides the selection itself: the documents that are the
 * request's topic (for the gate's scope check), the rest of the selection's own section (only
 * when the teacher asks for it) and the phrases the subject's text uses (for the gate's wording
 * checks).
 */

/** Documents of the top passage and of any holding a quarter of the selection: the request's topic. */
export function mainDocuments(chunks: readonly IContextChunk[]): string[] {
  const counts = new Map<string, number>();
  for (const c of chunks) counts.set(c.documentId, (counts.get(c.documentId) ?? 0) + 1);
  return [
    ...new Set([
      ...(chunks[0] ? [chunks[0].documentId] : []),
      ...[...counts].filter(([, n]) => n >= chunks.length / 4).map(([d]) => d),
    ]),
  ];
}

/** Passages of the scope in the selection's main section(s), not yet selected. */
export function sectionReserve(
  chunks: readonly IContextChunk[],
  scope: readonly IContextChunk[],
  sections: ReadonlySet<string>,
): IContextChunk[] {
  if (chunks.length === 0 || scope.length === 0) return [];
  const have = new Set(chunks.map(chunkKey));
  return scope
    .filter((c) => sections.has(sectionKeyOf(c)) && sectionKeyOf(c).includes(" > ") && !have.has(chunkKey(c)))
    .slice(0, 40);
}

/** "Phrases the subject's text uses": a lowercase, punctuation-free haystack of the scope. */
export function phraseIndex(chunks: readonly IContextChunk[]): (phrase: string) => boolean | undefined {
  const norm = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  const text = ` ${chunks.map((c) => norm(c.content)).join(" ")} `;
  return (phrase) => {
    const n = norm(phrase);
    const words = n.split(" ").length;
    if (words < 2 || words > 4) return undefined;
    return text.includes(` ${n} `);
  };
}
