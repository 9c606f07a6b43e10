import { contentWords, stem } from "@/lib/text/tokenize";
import type { EBloomLevel } from "@/types/bloom.types";
import type { ISlot, TQuestion } from "@/types/generation.types";
import { classifyBloom } from "./bloom-classifier";
import { overlap } from "./facts";
import { answerText, SUPPORT_THRESHOLD, stemKey } from "./validate";

/** Deterministic scorers for a generated set (the generation eval and the tests use them). */
export interface ISetScores {
  questions: number;
  requested: number;
  validCitations: number;
  supported: number;
  duplicates: number;
  blueprintAdherence: boolean;
  bloomAgreement: number;
  distractorSanity: number;
}

export function scoreSet(
  questions: readonly TQuestion[],
  slots: readonly ISlot[],
  givenKeys: ReadonlySet<string>,
  chunkText: ReadonlyMap<string, string>,
): ISetScores {
  const n = questions.length || 1;
  const citationOk = (q: TQuestion) =>
    q.contextRefs.length > 0 && q.contextRefs.every((r) => givenKeys.has(`${r.documentId}:${r.chunkIndex}`));
  const cited = (q: TQuestion) =>
    q.contextRefs.map((r) => chunkText.get(`${r.documentId}:${r.chunkIndex}`) ?? "").join("\n");
  const stems = questions.map((q) => stemKey(q.promptText));
  const duplicates = stems.length - new Set(stems).size;
  const bySlot = new Map(slots.map((s) => [s.id, s]));
  const count = (list: readonly { type: string; bloomLevel: EBloomLevel }[]) => {
    const m = new Map<string, number>();
    for (const x of list) m.set(`${x.type}/${x.bloomLevel}`, (m.get(`${x.type}/${x.bloomLevel}`) ?? 0) + 1);
    return [...m.entries()].sort().join(",");
  };
  const blueprintAdherence =
    questions.length === slots.length &&
    count(questions) === count(slots) &&
    questions.every((q) => bySlot.get(q.id)?.marks === q.marks);
  const sane = (q: TQuestion) => {
    if (q.type !== "mcq") return true;
    const key = q.options[q.correctIndex];
    if (!key || q.options.length !== 4) return false;
    const keyStems = contentWords(key).map(stem).join(" ");
    const distinct = new Set(q.options.map((o) => o.trim().toLowerCase())).size === 4;
    return (
      distinct &&
      q.options.every((o, i) => i === q.correctIndex || contentWords(o).map(stem).join(" ") !== keyStems)
    );
  };
  return {
    questions: questions.length,
    requested: slots.length,
    validCitations: questions.filter(citationOk).length / n,
    supported:
      questions.filter((q) => citationOk(q) && overlap(answerText(q), cited(q)) >= SUPPORT_THRESHOLD).length /
      n,
    duplicates,
    blueprintAdherence,
    bloomAgreement: questions.filter((q) => classifyBloom(q.promptText) === q.bloomLevel).length / n,
    distractorSanity: questions.filter(sane).length / n,
  };
}
