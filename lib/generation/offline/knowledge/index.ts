import type { IContextChunk } from "@/types/generation.types";
import { extractEquations, type IEquation } from "./equations";
import {
  extractConcepts,
  extractTerms,
  type IConcept,
  type IConceptLinks,
  type ITerm,
  linkConcepts,
} from "./lexicon";
import { extractEnumerations, type IEnumeration } from "./lists";
import { findWorkedExamples, type IWorkedExample } from "./numeric";
import { poolTerms } from "./pool";
import {
  extractCausal,
  extractDependences,
  extractEffects,
  extractMonotonic,
  type ICausal,
  type IDependence,
  type IEffect,
  type IMonotonic,
} from "./relations";
import {
  chunkKey,
  collectSentences,
  FEATURE_BOX,
  type ISentence,
  mainSections,
  sectionKeyOf,
} from "./sentences";

export type { IEquation, IFactor, IQuantity } from "./equations";
export type { IConcept, ITerm } from "./lexicon";
export type { IEnumeration } from "./lists";
export type { ICausal, IDependence, IEffect, IMonotonic } from "./relations";
export type { ISentence } from "./sentences";

/**
 * What the offline generator knows about the selected passages, and about their chapter for the
 * options: sentences, defined terms, named concepts of the chapter (distractors), stated
 * relationships and enumerations. Questions are built only from the selected
 * passages (`sentences`, `terms`, …); the chapter (`scope*`) only supplies wrong options and the
 * controls of an investigation, and is never cited.
 */
export interface IKnowledge {
  chunks: readonly IContextChunk[];
  byKey: ReadonlyMap<string, IContextChunk>;
  /** Rank of each passage in the teacher's selection (0 = first). */
  rank: ReadonlyMap<string, number>;
  sentences: ISentence[];
  terms: ITerm[];
  monotonic: IMonotonic[];
  causal: ICausal[];
  /** "y depends on a and b": stated dependences without a direction (fair tests). */
  dependences: IDependence[];
  /** "FSH stimulates the development of egg cells": a thing's stated effect on a quantity or process. */
  effects: IEffect[];
  enumerations: IEnumeration[];
  /** Worked examples ("Problem: … Solution: …") whose arithmetic can be re-done with new values. */
  examples: IWorkedExample[];
  /** Relations stated as equations with named quantities and checked units ("f = μN"). */
  equations: IEquation[];
  /** Terms defined anywhere in the chapter(s), context first. */
  scopeTerms: ITerm[];
  /**
   * Terms other documents of the subject define (`optionsOnly` passages of the scope): wrong
   * options for Remember MCQs only, and only of the key's kind (`pool.ts`).
   */
  poolTerms: ITerm[];
  /** Concepts named anywhere in the chapter(s), context first. */
  concepts: IConcept[];
  /** Relationships stated anywhere in the chapter(s) (controls for an investigation). */
  scopeMonotonic: IMonotonic[];
  /** Sentences of the chapter(s), selection first: a source of wrong options only, never cited. */
  scopeSentences: ISentence[];
  /** Lists, other names and broader terms among the chapter's concepts (what a wrong option must not be). */
  links: IConceptLinks;
}

function headingsOf(chunks: readonly IContextChunk[]): { name: string; section: string }[] {
  const out = new Map<string, { name: string; section: string }>();
  for (const c of chunks) {
    const parts = (c.sectionPath ?? "").split(" > ").slice(1);
    for (const p of parts) {
      const name = p.replace(/^(?:chapter\s+)?\d+(?:\.\d+)*:?\s*/i, "").trim();
      if (name && !FEATURE_BOX.test(name) && !out.has(name.toLowerCase()))
        out.set(name.toLowerCase(), { name, section: parts[0] ?? "" });
    }
  }
  return [...out.values()];
}

const cache = new Map<
  string,
  {
    terms: ITerm[];
    concepts: IConcept[];
    monotonic: IMonotonic[];
    links: IConceptLinks;
    sentences: ISentence[];
  }
>();
const CACHE_MAX = 64;

/** Chapter-level knowledge, cached by the set of passages it came from (chapters are reused). */
function scopeKnowledge(scope: readonly IContextChunk[]) {
  const id = `${scope.length}:${scope
    .slice(0, 50)
    .map((c) => chunkKey(c))
    .join(",")}`;
  const hit = cache.get(id);
  if (hit) return hit;
  const sentences = collectSentences(scope);
  const terms = extractTerms(sentences);
  const concepts = withGlosses(extractConcepts(sentences, terms, headingsOf(scope)), sentences);
  const value = {
    terms,
    concepts,
    monotonic: extractMonotonic(sentences),
    links: linkConcepts(sentences, concepts, terms),
    sentences,
  };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(id, value);
  return value;
}

/** Gives each concept without one the first standalone sentence that names it (what it is, for a rationale). */
function withGlosses(concepts: IConcept[], sentences: readonly ISentence[]): IConcept[] {
  const standalone = sentences.filter((s) => s.standalone && !s.sideBox);
  return concepts.map((c) => {
    if (c.gloss) return c;
    const name = c.name.toLowerCase();
    const s = standalone.find((x) => {
      const at = x.text.toLowerCase().indexOf(name);
      return (
        at >= 0 &&
        !/[\p{L}]/u.test(x.text.charAt(at - 1) || " ") &&
        !/[\p{L}]/u.test(x.text.charAt(at + name.length) || " ")
      );
    });
    return s ? { ...c, gloss: s.text, section: c.section || s.section } : c;
  });
}

function mergeLinks(a: IConceptLinks, b: IConceptLinks): IConceptLinks {
  const merge = (x: Map<string, Set<string>>, y: Map<string, Set<string>>) => {
    const out = new Map([...x].map(([k, v]) => [k, new Set(v)]));
    for (const [k, v] of y) {
      const set = out.get(k) ?? new Set<string>();
      for (const item of v) set.add(item);
      out.set(k, set);
    }
    return out;
  };
  return {
    siblings: merge(a.siblings, b.siblings),
    aliases: merge(a.aliases, b.aliases),
    broader: merge(a.broader, b.broader),
  };
}

function mergeBy<T>(key: (t: T) => string, ...lists: T[][]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const list of lists)
    for (const item of list) {
      const k = key(item);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(item);
    }
  return out;
}

export function buildKnowledge(
  chunks: readonly IContextChunk[],
  scope: readonly IContextChunk[] = [],
  topic: ReadonlySet<string> = mainSections(chunks),
): IKnowledge {
  // Questions come only from the passages of the topic's section(s); the others (and the
  // chapter) still name concepts for wrong options.
  const onTopic = chunks.filter((c) => topic.has(sectionKeyOf(c)));
  const sentences = collectSentences(onTopic.length > 0 ? onTopic : chunks);
  const offTopic = collectSentences(chunks.filter((c) => !topic.has(sectionKeyOf(c))));
  const terms = extractTerms(sentences);
  const own = withGlosses(extractConcepts([...sentences, ...offTopic], terms, headingsOf(chunks)), sentences);
  const none: IConceptLinks = { siblings: new Map(), aliases: new Map(), broader: new Map() };
  const chapter = scope.filter((c) => !c.optionsOnly);
  const wider =
    chapter.length > 0
      ? scopeKnowledge(chapter)
      : { terms: [], concepts: [], monotonic: [], links: none, sentences: [] as ISentence[] };
  const monotonic = extractMonotonic(sentences);
  return {
    chunks,
    byKey: new Map(chunks.map((c) => [chunkKey(c), c])),
    rank: new Map(chunks.map((c, i) => [chunkKey(c), i])),
    sentences,
    terms,
    monotonic,
    causal: extractCausal(sentences),
    dependences: extractDependences(sentences),
    effects: extractEffects(sentences),
    enumerations: extractEnumerations(sentences),
    examples: findWorkedExamples(onTopic.length > 0 ? onTopic : chunks),
    equations: extractEquations(onTopic.length > 0 ? onTopic : chunks),
    scopeTerms: mergeBy((t) => t.term.toLowerCase(), terms, wider.terms),
    poolTerms: poolTerms(scope.filter((c) => c.optionsOnly)),
    concepts: mergeBy((c) => c.name.toLowerCase(), own, wider.concepts),
    scopeMonotonic: mergeBy((r) => `${r.x}|${r.y}`, monotonic, wider.monotonic),
    scopeSentences: mergeBy((s) => s.text, sentences, wider.sentences),
    // The chapter's links are computed once per chapter; the selection's are added to them.
    links: mergeLinks(
      wider.links,
      linkConcepts(
        [...sentences, ...offTopic],
        mergeBy((c) => c.name.toLowerCase(), own, wider.concepts),
        mergeBy((t) => t.term.toLowerCase(), terms, wider.terms),
      ),
    ),
  };
}
