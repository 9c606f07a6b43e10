import nlp from "compromise";
import { contentWords } from "@/lib/text/tokenize";
import { type ISentence, META_TEXT, mathDensity, NAVIGATION } from "./sentences";

/**
 * Processes the passages state as ordered steps: "First, … Then, … Next, … Finally, …", "The first
 * step in digestion is ingestion … The final step …", "During the second phase, …". A process is
 * what sequence questions are made of (order the steps: Understand; what could not follow if a
 * step failed: Analyze). Only runs of at least three steps in one block of one passage, each step
 * an event (a verb other than "be" or "have"), so a list of features introduced by "First, they
 * have …" is not read as a process.
 */
export interface IStep {
  /** The step as a statement without its order word ("the virions escape the host cell"). */
  text: string;
  /** The passage sentence it came from (quoted by the question). */
  sentence: string;
  chunkKey: string;
}

export interface IProcess {
  /** What the steps are steps of ("digestion", or the block's heading). */
  name: string;
  steps: IStep[];
}

const START =
  /^(?:step 1\.?\s+)?(?:first(?:ly)?|to begin(?: with)?|initially|in the first (?:step|stage|phase)|during the first (?:step|stage|phase))\b,?\s*/i;
const NEXT =
  /^(?:step \d+\.?\s+)?(?:second(?:ly)?|third(?:ly)?|fourth|then|next|after (?:this|that)|subsequently|afterwards?|following this|in the (?:second|third|fourth|next) (?:step|stage|phase)|during the (?:second|third|fourth|next) (?:step|stage|phase)|finally|lastly|in the (?:final|last) (?:step|stage|phase))\b,?\s*/i;
/** "The first step in digestion is ingestion": an order word inside the sentence. */
const ORDINAL_STEP = /\bthe (first|second|third|fourth|next|final|last) (step|stage|phase)\b/i;
const FIRST_IN =
  /\bthe first (?:step|stage|phase) (?:in|of) ((?:the )?[\p{L}][\p{L}\p{N}'’ -]{2,40}?) (?:is|was|involves)\b/iu;
/** Order words a step must not keep: they would give the order away. */
const ORDER_WORDS =
  /\b(?:first|second|third|fourth|next|final|finally|last|lastly|then|initially|subsequently|afterwards?)\b/i;

const STEP_LIMIT = 6;

function isEvent(text: string): boolean {
  const verbs = nlp(text).verbs().out("array") as string[];
  return verbs.some(
    (v) =>
      !/^(?:(?:is|are|was|were|be|been|being|has|have|had)\b(?:\s+(?:not|also|usually|typically|often|generally))?\s*)+$/i.test(
        v.trim(),
      ),
  );
}

/** The step's statement: the order word cut, an ordinal phrase made neutral, a capital restored. */
export function stepText(sentence: string): string | null {
  let t = sentence.replace(START, "").replace(NEXT, "").trim();
  t = t.replace(/^(?:,\s*)/, "");
  t = t.replace(ORDINAL_STEP, (_m, _o, kind: string) => `a ${kind.toLowerCase()}`);
  // "and then the ventricles contract": keep the event, drop the order word.
  t = t.replace(/,?\s+and then\s+/gi, " and ").replace(/\s+then\s+/gi, " ");
  if (ORDER_WORDS.test(t)) return null;
  if (/^(?:it|its|they|their|them|this|these|those|there|he|she)\b/i.test(t)) return null;
  if (contentWords(t).length < 3 || t.split(/\s+/).length > 40) return null;
  return t.charAt(0).toUpperCase() + t.slice(1);
}

const usable = (s: ISentence) =>
  !s.sideBox &&
  /[.!]$/.test(s.text) &&
  !NAVIGATION.test(s.text) &&
  !META_TEXT.test(s.text) &&
  mathDensity(s.text) < 0.08 &&
  !/\b(?:figure|table|fig\.)\b/i.test(s.text);

const isStart = (s: ISentence) =>
  START.test(s.text) ||
  /\bthe first (?:step|stage|phase)\b(?! of (?:this|the) (?:book|chapter|section))/i.test(s.text);
const isNext = (s: ISentence) =>
  NEXT.test(s.text) || /\bthe (?:second|third|fourth|next|final|last) (?:step|stage|phase)\b/i.test(s.text);

function processName(first: ISentence): string {
  const m = FIRST_IN.exec(first.text);
  if (m) return m[1]!.replace(/^the\s+/i, "").trim();
  // A heading as a phrase: "The Nitrogen Cycle" → "the nitrogen cycle" (acronyms and names kept).
  return (first.heading || first.section)
    .replace(/^\d+(?:\.\d+)*\s+/, "")
    .trim()
    .split(/\s+/)
    .map((w) => (/^\p{Lu}\p{Ll}+$/u.test(w) ? w.toLowerCase() : w))
    .join(" ");
}

/** Ordered runs of steps in the passages' sentences (see `IProcess`). */
export function extractProcesses(sentences: readonly ISentence[]): IProcess[] {
  const out: IProcess[] = [];
  const blockOf = (s: ISentence) => `${s.chunkKey}\u0000${s.heading}`;
  for (let i = 0; i < sentences.length; i++) {
    const first = sentences[i]!;
    if (!isStart(first) || !usable(first)) continue;
    const run: ISentence[] = [first];
    let gap = 0;
    let j = i + 1;
    for (; j < sentences.length && run.length < STEP_LIMIT; j++) {
      const s = sentences[j]!;
      if (blockOf(s) !== blockOf(first) || isStart(s)) break;
      if (isNext(s) && usable(s)) {
        run.push(s);
        gap = 0;
        if (/^(?:finally|lastly)\b|\bthe (?:final|last) (?:step|stage|phase)\b/i.test(s.text)) break;
      } else if (++gap > 4) break;
    }
    if (run.length < 3) continue;
    const steps: IStep[] = [];
    for (const s of run) {
      const text = stepText(s.text);
      if (!text || !isEvent(text)) break;
      steps.push({ text, sentence: s.text, chunkKey: s.chunkKey });
    }
    if (steps.length >= 3 && new Set(steps.map((s) => s.text)).size === steps.length) {
      const name = processName(first);
      if (name) out.push({ name, steps });
      i = j - 1;
    }
  }
  return out;
}

/** "Steps of Virus Infections", "Stages of Mitosis": a heading whose sub-headings are the steps. */
const STEPS_HEADING = /^(?:the\s+)?(?:steps|stages|phases|events)\s+(?:of|in)\s+(.{3,60})$/i;

/**
 * Processes stated by headings: a "Steps of X" heading whose next-level sub-headings (feature
 * boxes aside) are the steps, in order, each described by the first sentence of its block that
 * can stand as a step (see `stepText`). Only the passages holding `sentences` are read.
 */
export function extractHeadedProcesses(
  chunks: readonly { content: string; key: string }[],
  sentences: readonly ISentence[],
  sideBox: RegExp,
): IProcess[] {
  const out: IProcess[] = [];
  for (const chunk of chunks) {
    const headings = [...chunk.content.matchAll(/^(#+)\s*(.+?)\s*$/gm)].map((m) => ({
      level: m[1]!.length,
      text: m[2]!,
    }));
    headings.forEach((h, i) => {
      const m = STEPS_HEADING.exec(h.text);
      if (!m) return;
      const steps: IStep[] = [];
      for (const child of headings.slice(i + 1)) {
        if (child.level <= h.level) break;
        if (child.level !== h.level + 1 || sideBox.test(child.text)) continue;
        const block = sentences.filter(
          (s) => s.chunkKey === chunk.key && s.heading === child.text && usable(s),
        );
        const first = block
          .map((s) => ({ s, text: stepText(s.text) }))
          .find((x) => x.text && ANAPHORIC.test(x.s.text) === false && isEvent(x.text));
        if (!first?.text) return;
        steps.push({ text: first.text, sentence: first.s.text, chunkKey: chunk.key });
      }
      if (steps.length >= 3) out.push({ name: m[1]!.replace(/^the\s+/i, "").toLowerCase(), steps });
    });
  }
  return out;
}

const ANAPHORIC = /^(?:it|its|this|these|those|they|their|such|as you)\b/i;
