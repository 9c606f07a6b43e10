import { type EQualityFlag, QUALITY_FLAGS } from "./gate/types";

/** What a quality-gate flag means, as a verb phrase that reads after "it" or "two drafts". */
const PHRASES: Record<EQualityFlag, string> = {
  schema: "came back incomplete",
  citation: "cited the passages wrongly",
  injection: "followed instructions written in a passage",
  fragment: "used a broken piece of text",
  vague_stem: "asked too vague a question",
  ungrammatical: "read badly",
  trivial: "asked something too obvious",
  copy_paste: "copied the passage word for word",
  nonsense_distractor: "had a wrong option that made no sense",
  multiple_correct: "had more than one right option",
  wrong_key: "marked the wrong option as the answer",
  answer_not_in_passage: "gave an answer the passages do not support",
  generic_rationale: "explained a wrong option too vaguely",
  bloom_mismatch: "did not ask at the level set",
  duplicate_fact: "tested the same fact as another question",
  off_topic: "strayed from the topic",
};

const NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const count = (n: number) => NUMBERS[n] ?? String(n);

const FLAG_NAMES = new Map<string, EQualityFlag>(QUALITY_FLAGS.map((f) => [f.replace(/_/g, " "), f]));

/** "a, b and c". */
const and = (parts: string[]) =>
  parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;

/** Reads "duplicate fact ×2, generic rationale ×1" or "vague stem, wrong key"; undefined when it is not a flag list. */
function parseList(list: string): { flag: EQualityFlag; n?: number }[] | undefined {
  const items = list.split(/,\s*/).map((raw) => {
    const m = /^([a-z ]+?)(?: ×(\d+))?$/.exec(raw.trim());
    const flag = m ? FLAG_NAMES.get(m[1]!) : undefined;
    return flag ? { flag, ...(m?.[2] ? { n: Number(m[2]) } : {}) } : undefined;
  });
  return items.every((i) => i !== undefined) && items.length > 0 ? items : undefined;
}

/** A flag list in teacher sentences: "two drafts tested the same fact as another question; one draft …". */
function sentence(items: { flag: EQualityFlag; n?: number }[]): string {
  if (items.every((i) => i.n === undefined)) return `it ${and(items.map((i) => PHRASES[i.flag]))}`;
  return items
    .map((i) => `${count(i.n ?? 1)} ${(i.n ?? 1) === 1 ? "draft" : "drafts"} ${PHRASES[i.flag]}`)
    .join("; ");
}

/**
 * A generation note or reason with the quality gate's flag names ("refused by the quality gate
 * (duplicate fact ×2, generic rationale ×1)", "noted bloom mismatch, generic rationale;") put in
 * teacher sentences. Text without flag names comes back as it was.
 */
export function teacherWords(text: string): string {
  return text
    .replace(/ \(([a-z ×\d,]+)\)/g, (whole, list: string) => {
      const items = parseList(list);
      return items ? `: ${sentence(items)}` : whole;
    })
    .replace(/\bnoted ([a-z ,]+);/g, (whole, list: string) => {
      const items = parseList(list);
      return items ? `noted that ${sentence(items)};` : whole;
    });
}

/** One warning flag ("generic_rationale: …" as stored) as the teacher reads it: the message, else the phrase. */
export function flagSentence(stored: string): string {
  const m = /^([a-z_]+): (.*)$/s.exec(stored);
  if (!m) return stored;
  return m[2]!.trim() || `It ${PHRASES[m[1] as EQualityFlag] ?? m[1]!.replace(/_/g, " ")}.`;
}
