import { chunkKey, passageSentences, sectionKeyOf } from "@/lib/generation/offline/knowledge/sentences";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import {
  checkCitations,
  checkCopyPaste,
  checkDuplicates,
  checkFragments,
  checkGrammar,
  checkInjection,
  checkKeyAndDistractors,
  checkKeyByExplanation,
  checkRationales,
  checkSchema,
  checkScope,
  checkSupport,
  checkTrivial,
  checkVagueStem,
} from "./checks";
import { estimateDemand, levelIndex } from "./demand";
import { stemSet } from "./text";
import type {
  EGateProfile,
  EQualityFlag,
  IGateContext,
  IGateFinding,
  IGateOptions,
  IGateResult,
  IGateSentence,
  IGateState,
} from "./types";
import { REFUSAL_FLAGS } from "./types";

export { estimateDemand } from "./demand";
export type {
  EGateProfile,
  EQualityFlag,
  IGateContext,
  IGateFinding,
  IGateOptions,
  IGateResult,
  IGateState,
} from "./types";
export { QUALITY_FLAGS, REFUSAL_FLAGS } from "./types";

/**
 * The gate's view of the passages: their sentences with content stems, and the documents a
 * question may come from. Without an explicit scope, the main documents of the context are the
 * scope: those of the top passage and any holding a quarter of the passages, so one stray passage
 * from another chapter cannot become a question.
 */
export function createGateContext(
  chunks: readonly IContextChunk[],
  opts: {
    scopeDocuments?: readonly string[];
    scopeSections?: readonly string[];
    knownPhrase?: (phrase: string) => boolean | undefined;
    /** Keys (`documentId:chunkIndex`) of the passages the questions were written from; default: all. */
    selected?: readonly string[];
  } = {},
): IGateContext {
  const selected = opts.selected ? new Set(opts.selected) : null;
  const passages = new Map(
    chunks.map((c) => [
      chunkKey(c),
      {
        key: chunkKey(c),
        documentId: c.documentId,
        content: c.content,
        sectionPath: c.sectionPath,
        section: sectionKeyOf(c),
        selected: selected ? selected.has(chunkKey(c)) : true,
      },
    ]),
  );
  const sentences: IGateSentence[] = chunks.flatMap((c) =>
    passageSentences(c.content).map((text) => ({ text, key: chunkKey(c), stems: stemSet(text) })),
  );
  let scope = opts.scopeDocuments ? new Set(opts.scopeDocuments) : new Set<string>();
  if (scope.size === 0 && chunks.length > 0) {
    const counts = new Map<string, number>();
    for (const c of chunks) counts.set(c.documentId, (counts.get(c.documentId) ?? 0) + 1);
    scope = new Set([
      chunks[0]!.documentId,
      ...[...counts].filter(([, n]) => n >= chunks.length / 4).map(([d]) => d),
    ]);
  }
  return {
    passages,
    sentences,
    scopeDocuments: scope,
    scopeSections: new Set(opts.scopeSections ?? []),
    ...(opts.knownPhrase ? { knownPhrase: opts.knownPhrase } : {}),
  };
}

/**
 * Reads one question against the rubric: schema and citations, planted instructions, fragments and
 * meta text, vague stems, grammar that gives the key away, a key visible in the stem, copied model
 * answers, distractors of the wrong kind or also true, a wrong or unsupported key, generic
 * rationales, a Bloom label the demand does not support, a fact the set already asks, and passages
 * from outside the scope. Any `reject` finding fails the question; under the `model` profile only
 * the findings of `REFUSAL_FLAGS` keep `reject`, the others are shown to the teacher as warnings.
 */
export function gateQuestion(
  q: TQuestion,
  expectedLevel: EBloomLevel,
  ctx: IGateContext,
  state: IGateState = { accepted: [] },
  opts: IGateOptions = {},
): IGateResult {
  const skip = new Set<EQualityFlag>(opts.skip ?? []);
  const profile = opts.profile ?? "strict";
  const findings: IGateFinding[] = [];
  const run = (flag: EQualityFlag, check: () => IGateFinding[]) => {
    if (!skip.has(flag)) findings.push(...check());
  };
  run("schema", () => checkSchema(q));
  run("citation", () => checkCitations(q, ctx));
  run("injection", () => checkInjection(q, ctx));
  run("fragment", () => checkFragments(q));
  run("vague_stem", () => checkVagueStem(q));
  run("ungrammatical", () => checkGrammar(q));
  run("trivial", () => checkTrivial(q));
  run("copy_paste", () => checkCopyPaste(q, ctx));
  run("answer_not_in_passage", () => checkSupport(q, ctx, profile));
  run("nonsense_distractor", () => checkKeyAndDistractors(q, ctx));
  run("wrong_key", () => checkKeyByExplanation(q));
  run("generic_rationale", () => checkRationales(q));
  run("duplicate_fact", () => checkDuplicates(q, state));
  run("off_topic", () => checkScope(q, ctx, profile));
  const demand = estimateDemand(q, ctx);
  if (!skip.has("bloom_mismatch")) {
    const gap = levelIndex(expectedLevel) - levelIndex(demand);
    if (gap > 0)
      findings.push({
        flag: "bloom_mismatch",
        message: `Labelled ${expectedLevel}, but what earns the marks is ${demand}.`,
        severity: "reject",
      });
    else if (gap < 0)
      findings.push({
        flag: "bloom_mismatch",
        message: `Labelled ${expectedLevel}; the demand reads as ${demand}.`,
        severity: "warn",
      });
  }
  const graded = gradeFindings(findings, profile);
  return { passed: graded.every((f) => f.severity !== "reject"), findings: graded, demand };
}

/**
 * Findings as the profile grades them: under `model` only `REFUSAL_FLAGS` (and hard findings)
 * keep `reject`, the others become warnings; then one finding per flag and severity, the first.
 */
export function gradeFindings(findings: readonly IGateFinding[], profile: EGateProfile): IGateFinding[] {
  const graded =
    profile === "model"
      ? findings.map((f) =>
          f.severity === "reject" && !REFUSAL_FLAGS.has(f.flag) && !f.hard
            ? { ...f, severity: "warn" as const, downgraded: true }
            : f,
        )
      : findings;
  // One finding per flag is enough to explain a verdict.
  const seen = new Set<string>();
  return graded.filter((f) => {
    const k = `${f.flag}:${f.severity}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
