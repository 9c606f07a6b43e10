import { contentWords, stem } from "@/lib/text/tokenize";
import type { IPaper, IPyqMatch } from "@/types/paper.types";

/** Words that say what to do, not what about: two questions that differ only here are the same. */
const INSTRUCTION = new Set(
  "define explain describe state give write list name mention discuss identify outline brief briefly short note notes differentiate distinguish answer following statement statements correct option options choose select true false marks mark reason reasons suitable example examples".split(
    " ",
  ),
);

export const PYQ_THRESHOLD = 0.6;

interface IFingerprint {
  weights: Map<string, number>;
  norm: number;
  unigrams: Set<string>;
}

/** Stemmed content words and adjacent pairs, instruction words removed. */
export function fingerprint(text: string): IFingerprint {
  const stems = contentWords(text)
    .map((w) => w.toLowerCase())
    .filter((w) => !INSTRUCTION.has(w) && !/^\d+$/.test(w))
    .map(stem);
  const weights = new Map<string, number>();
  for (const s of stems) weights.set(s, (weights.get(s) ?? 0) + 1);
  for (let i = 1; i < stems.length; i++) {
    const k = `${stems[i - 1]}_${stems[i]}`;
    weights.set(k, (weights.get(k) ?? 0) + 1);
  }
  let norm = 0;
  for (const w of weights.values()) norm += w * w;
  return { weights, norm: Math.sqrt(norm), unigrams: new Set(stems) };
}

/**
 * Near-duplicate score in [0, 1]: cosine of the fingerprints, damped when fewer than three
 * content words are shared (so "Define osmosis." alone is weak evidence, not a match).
 */
export function similarity(a: IFingerprint, b: IFingerprint): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  let dot = 0;
  for (const [k, w] of a.weights) dot += w * (b.weights.get(k) ?? 0);
  let shared = 0;
  for (const u of a.unigrams) if (b.unigrams.has(u)) shared++;
  return (dot / (a.norm * b.norm)) * Math.min(1, shared / 3);
}

/**
 * Splits past-paper text into its questions: numbered items ("1.", "Q2)", "(iii)") or, failing
 * numbering, lines/sentences that end with a question mark. Options and marks stay with their stem.
 */
export function splitQuestions(content: string): string[] {
  const parts = content
    .replace(/\r/g, "")
    .split(/(?:^|\n)\s*(?:Q(?:uestion)?\.?\s*)?\(?(?:\d{1,3}|[ivx]{1,5})[.)]\s+/i)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => p.length >= 15);
  const out: string[] = [];
  for (const part of parts) {
    if (part.length <= 600) {
      out.push(part);
      continue;
    }
    // An unnumbered block: each question-like sentence on its own.
    for (const s of part.split(/(?<=[?.])\s+(?=[A-Z(])/)) if (s.length >= 15 && s.length <= 600) out.push(s);
  }
  return out;
}

export interface IPyqChunk {
  documentId: string;
  title: string;
  pageStart?: number;
  content: string;
}

/** For every item (and OR alternative) of the paper, the most similar past-paper question above the threshold. */
export function findPyqMatches(
  paper: Pick<IPaper, "sections">,
  chunks: readonly IPyqChunk[],
  threshold = PYQ_THRESHOLD,
): Record<string, IPyqMatch> {
  const pool = chunks.flatMap((c) =>
    splitQuestions(c.content).map((text) => ({ chunk: c, text, fp: fingerprint(text) })),
  );
  const matches: Record<string, IPyqMatch> = {};
  if (pool.length === 0) return matches;
  for (const item of paper.sections.flatMap((s) => s.items)) {
    for (const q of [item.question, item.alternative]) {
      if (!q) continue;
      const fp = fingerprint(q.promptText);
      let best: { score: number; entry: (typeof pool)[number] } | undefined;
      for (const entry of pool) {
        const score = similarity(fp, entry.fp);
        if (score >= threshold && (!best || score > best.score)) best = { score, entry };
      }
      if (best && (!matches[item.id] || best.score > matches[item.id]!.score)) {
        matches[item.id] = {
          documentId: best.entry.chunk.documentId,
          title: best.entry.chunk.title,
          ...(best.entry.chunk.pageStart !== undefined ? { pageStart: best.entry.chunk.pageStart } : {}),
          text: best.entry.text.slice(0, 600),
          score: Math.round(best.score * 100) / 100,
        };
      }
    }
  }
  return matches;
}
