import type { IDiversifyOptions } from "@/types/retrieval.types";

/**
 * MMR-style reordering over sections (Carbonell & Goldstein 1998, with "same section" as the
 * similarity). A chapter-wide request ("10 MCQs on Photosynthesis") needs material from several
 * sections; pure relevance order tends to return five chunks of the one section whose words match
 * best. Each pick maximises
 *
 *   lambda · relevance − (1 − lambda) · redundancy,   redundancy = 1 − 0.5^(picks already from that section)
 *
 * with relevance min–max normalised over the items, so lambda means the same for any score scale.
 * The second chunk of a section costs 0.5, the third 0.75: breadth first, depth when it is much
 * more relevant.
 */

/** Breadth first for chapter-wide prompts; 0.7 left fewer distinct sections in the top 8 (README). */
export const DEFAULT_DIVERSIFY_LAMBDA = 0.5;

/** Reorder items (best first in, best first out). All items are returned; the first `limit` by MMR. */
export function diversifyBySection<T>(items: readonly T[], options: IDiversifyOptions<T>): T[] {
  const n = items.length;
  if (n <= 1) return [...items];
  const lambda = Math.min(1, Math.max(0, options.lambda ?? DEFAULT_DIVERSIFY_LAMBDA));
  const limit = Math.min(n, Math.max(0, options.limit ?? n));
  const raw = items.map((item) => {
    const s = options.score(item);
    return Number.isFinite(s) ? s : 0;
  });
  const max = Math.max(...raw);
  const min = Math.min(...raw);
  const relevance = raw.map((s) => (max > min ? (s - min) / (max - min) : 1));
  const sections = items.map((item) => options.key(item));

  const picked: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const perSection = new Map<string, number>();
  while (picked.length < limit) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      if (used[i]) continue;
      const seen = perSection.get(sections[i] as string) ?? 0;
      const value = lambda * (relevance[i] as number) - (1 - lambda) * (1 - 0.5 ** seen);
      // Strict ">" keeps the earlier (higher-ranked) item on ties.
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    if (best < 0) break;
    used[best] = true;
    picked.push(best);
    const key = sections[best] as string;
    perSection.set(key, (perSection.get(key) ?? 0) + 1);
  }
  const rest = items.filter((_, i) => !used[i]);
  return [...picked.map((i) => items[i] as T), ...rest];
}
