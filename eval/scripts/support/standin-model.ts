import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { type IStandIn, startOpenAIStandIn } from "../../../tests/support/openai-stand-in";

/**
 * A capable stand-in model for the language-model path: the OpenAI-compatible server of
 * tests/support/openai-stand-in.ts answering each question prompt with a prepared draft
 * (eval/generation/standin/answers.jsonl) written for that section, question type and Bloom level,
 * and a prepared rewrite when the prompt carries the reviewer's feedback. The section is the one the
 * bench is generating for (`current`); type and level are parsed from the prompt text. Citations in
 * the prepared drafts are `chunk:N` and become the prompt's own passage id with chunk index N.
 * With `capture`, every question prompt is appended to that file (JSONL) as it arrives.
 */
export interface IPreparedDraft {
  section: string;
  type: "mcq" | "short" | "long";
  level: string;
  /** A rewrite answer, used when the prompt asks for a different question after a refusal. */
  rewrite?: boolean;
  draft: Record<string, unknown> & { citations: string[] };
}

export interface IPromptRecord {
  section: string;
  type: string;
  level: string;
  rewrite: boolean;
  feedback: string[];
  prompt: string;
  answered: "prepared" | "none";
}

export interface IPreparedStandIn {
  standIn: IStandIn;
  /** Section id (`physics:8.1`) the next prompts belong to. */
  current: string;
  /** Every question prompt seen, in order. */
  prompts: IPromptRecord[];
}

export function parseSlot(prompt: string): {
  type: string;
  level: string;
  rewrite: boolean;
  feedback: string[];
} {
  const type = /^Write a multiple-choice/m.test(prompt)
    ? "mcq"
    : /^Write a short-answer/m.test(prompt)
      ? "short"
      : /^Write a long-answer/m.test(prompt)
        ? "long"
        : "?";
  const level = /^Bloom level: (\w+)/m.exec(prompt)?.[1] ?? "?";
  const fb = /The reviewer found these problems[^\n]*\n((?:- [^\n]*\n?)+)/.exec(prompt);
  const feedback = fb
    ? fb[1]!
        .split("\n")
        .filter((l) => l.startsWith("- "))
        .map((l) => l.slice(2))
    : [];
  return { type, level, rewrite: feedback.length > 0, feedback };
}

/**
 * `chunk:N` → the id of the prompt's passage with chunk index N (the first one if two documents
 * have it). A model cites only passages it was given: citations of passages this slot's prompt
 * does not carry are dropped (left as written when none would remain, so the gate sees them).
 */
export function resolveCitations(citations: readonly string[], prompt: string): string[] {
  const ids = [...prompt.matchAll(/<passage id="([^"]+)"/g)].map((m) => m[1]!);
  const resolved = citations.map((c) => {
    const n = /^chunk:(\d+)$/.exec(c)?.[1];
    return (n && ids.find((id) => id.endsWith(`:${n}`))) || c;
  });
  const given = resolved.filter((c) => ids.includes(c));
  return given.length ? given : resolved;
}

export function readPreparedDrafts(file: string): IPreparedDraft[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as IPreparedDraft);
}

export async function startPreparedStandIn(
  drafts: readonly IPreparedDraft[],
  capture?: string,
): Promise<IPreparedStandIn> {
  const standIn = await startOpenAIStandIn("ok");
  const state: IPreparedStandIn = { standIn, current: "", prompts: [] };
  const used = new Map<string, number>();
  standIn.answer = (step, prompt) => {
    // Retrieval's steps are not measured here: the bench asks retrieval not to rerank.
    if (step !== "question") return undefined;
    const slot = parseSlot(prompt);
    const key = `${state.current}|${slot.type}|${slot.level}|${slot.rewrite}`;
    const pool = drafts.filter(
      (d) =>
        d.section === state.current &&
        d.type === slot.type &&
        d.level === slot.level &&
        (d.rewrite ?? false) === slot.rewrite,
    );
    const n = used.get(key) ?? 0;
    used.set(key, n + 1);
    // No prepared rewrite: the model sends its first draft again (the gate then decides as before).
    const firsts = drafts.filter(
      (d) => d.section === state.current && d.type === slot.type && d.level === slot.level && !d.rewrite,
    );
    const pick =
      pool[n % Math.max(1, pool.length)] ??
      (slot.rewrite ? firsts[n % Math.max(1, firsts.length)] : undefined);
    const record: IPromptRecord = {
      section: state.current,
      ...slot,
      prompt,
      answered: pick ? "prepared" : "none",
    };
    state.prompts.push(record);
    if (capture) appendFileSync(capture, `${JSON.stringify(record)}\n`);
    // No prepared answer: an empty object, which fails the question schema (the slot then says why).
    if (!pick) return {};
    return { ...pick.draft, citations: resolveCitations(pick.draft.citations, prompt) };
  };
  return state;
}
