import { contentWords, stem } from "@/lib/text/tokenize";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IValidation, TQuestion } from "@/types/generation.types";
import { classifyBloom } from "./bloom-classifier";
import { overlap } from "./facts";

/** Share of the answer's content stems that must occur in the cited text. */
export const SUPPORT_THRESHOLD = 0.6;

export const stemKey = (text: string) => contentWords(text).map(stem).join(" ");

/** What the answer is: the MCQ key, or the evaluator keywords of a written answer. */
export function answerText(q: TQuestion): string {
  return q.type === "mcq" ? (q.options[q.correctIndex] ?? "") : q.evaluatorKeywords.join(" ");
}

export interface IValidateContext {
  givenKeys: ReadonlySet<string>;
  /** Full text of each given chunk, by `documentId:chunkIndex`. */
  chunkText: ReadonlyMap<string, string>;
  /** Stems of prompts already accepted in this set. */
  seenStems: Set<string>;
  expectedLevel: EBloomLevel;
}

/**
 * Checks one question before it is final: citations name given chunks and quote them, the
 * answer is supported by the cited text, no duplicate stem or option, options of comparable
 * length, and the wording's Bloom level matches the label.
 */
export function validateQuestion(q: TQuestion, ctx: IValidateContext, regenerated = false): IValidation {
  const flags: string[] = [];
  const keys = q.contextRefs.map((r) => `${r.documentId}:${r.chunkIndex}`);
  const citationsOk =
    keys.length > 0 &&
    keys.every((k) => ctx.givenKeys.has(k)) &&
    q.contextRefs.every(
      (r) => overlap(r.quote, ctx.chunkText.get(`${r.documentId}:${r.chunkIndex}`) ?? "") >= 0.9,
    );
  if (!citationsOk) flags.push("citation names or quotes a passage that was not given");
  const cited = keys.map((k) => ctx.chunkText.get(k) ?? "").join("\n");
  const supported = citationsOk && overlap(answerText(q), cited) >= SUPPORT_THRESHOLD;
  if (!supported) flags.push("answer is not supported by the cited text");
  const promptStem = stemKey(q.promptText);
  if (ctx.seenStems.has(promptStem)) flags.push("duplicate question stem");
  if (q.type === "mcq") {
    const opts = q.options.map((o) => o.trim().toLowerCase());
    if (q.options.length !== 4 || new Set(opts).size !== opts.length)
      flags.push("options must be 4 distinct choices");
    if (q.correctIndex < 0 || q.correctIndex >= q.options.length)
      flags.push("answer key is not among the options");
    const lengths = q.options.map((o) => o.length);
    if (Math.max(...lengths) > 4 * Math.max(1, Math.min(...lengths))) flags.push("option lengths are uneven");
  }
  const bloomAgreed = classifyBloom(q.promptText) === ctx.expectedLevel;
  if (!bloomAgreed) flags.push(`wording reads as ${classifyBloom(q.promptText)}, not ${ctx.expectedLevel}`);
  return { citationsOk, supported, bloomAgreed, regenerated, flags };
}

/** Hard failures reject a question; uneven options and Bloom disagreement are flagged only. */
export function isAcceptable(v: IValidation): boolean {
  return (
    v.citationsOk &&
    v.supported &&
    !v.flags.some(
      (f) => f.startsWith("duplicate") || f.startsWith("options must") || f.startsWith("answer key"),
    )
  );
}
