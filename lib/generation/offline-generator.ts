import { isPluralNoun, nounPhrases } from "@/lib/text/phrases";
import { contentWords, stem } from "@/lib/text/tokenize";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, IContextRef, ISlot, TQuestion } from "@/types/generation.types";
import { blockSentences, chunkKey, contextRef, extractFacts, type IFact, isUsable, keyTerms } from "./facts";
import { largestRemainder } from "./plan";

/**
 * The offline question generator: a real, deterministic algorithm over the facts extracted from
 * the selected passages. Each Bloom level has templates whose wording carries that level's
 * construct (define → explain → illustrate → analyse cause/effect → judge a claim → design);
 * MCQ distractors are other concepts or definitions from the same passages (never the answer,
 * never a term sharing its stems), and claim-style distractors are made false by construction
 * (a definition attached to the wrong term). Every question cites the sentence it came from.
 */

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const stemsOf = (s: string) => new Set(contentWords(s).map(stem));
const sharesStem = (a: string, b: string) => {
  const sa = stemsOf(a);
  for (const s of stemsOf(b)) if (sa.has(s)) return true;
  return false;
};
const clip = (s: string, n = 220) => (s.length <= n ? s : `${s.slice(0, s.lastIndexOf(" ", n)).trim()}…`);
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lower = (s: string) => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

export function evaluatorKeywords(text: string, max = 5): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of contentWords(text).sort((a, b) => b.length - a.length)) {
    const s = stem(w);
    if (seen.has(s) || /^\d+$/.test(w)) continue;
    seen.add(s);
    out.push(w);
    if (out.length >= max) break;
  }
  return out;
}

type TLevelKinds = Record<EBloomLevel, IFact["kind"][]>;
const PREFERRED: TLevelKinds = {
  Remember: ["definition", "statement", "numeric"],
  Understand: ["definition", "cause", "statement", "comparison"],
  Apply: ["definition", "numeric", "cause", "statement"],
  Analyze: ["cause", "comparison", "definition"],
  Evaluate: ["definition", "cause", "comparison", "statement", "numeric"],
  Create: ["cause", "definition"],
};

export interface IOfflineGenerator {
  /** A question for the slot, or null when no unused fact can carry it. */
  generate(slot: ISlot, attempt?: number): TQuestion | null;
  readonly factCount: number;
  readonly terms: readonly string[];
}

export function createOfflineGenerator(chunks: readonly IContextChunk[], seed = 1): IOfflineGenerator {
  const facts = extractFacts(chunks);
  const terms = keyTerms(chunks, facts);
  const definitions = facts.filter((f) => f.kind === "definition");
  const byKey = new Map(chunks.map((c) => [chunkKey(c), c]));
  const used = new Set<string>();
  const random = mulberry32(seed);

  const refOf = (key: string, quote: string): IContextRef => contextRef(byKey.get(key)!, quote);
  const topicOf = (key: string) =>
    (byKey.get(key)?.sectionPath?.split(" > ").pop() ?? byKey.get(key)?.title ?? "the passage").replace(
      /^\d+(\.\d+)*\s+/,
      "",
    );

  /** `term` as whole words, case-insensitive ("heat transfer" does not match "heat transferred"). */
  const patterns = new Map<string, RegExp>();
  function wordPattern(term: string): RegExp {
    let re = patterns.get(term);
    if (!re) {
      const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      re = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "iu");
      patterns.set(term, re);
    }
    return re;
  }

  /** Whether `sentence` mentions `term` as whole words (a cheap substring test first). */
  const mentions = (sentence: string, term: string) =>
    sentence.toLowerCase().includes(term.toLowerCase()) && wordPattern(term).test(sentence);

  /** Up to n items closest in length to `like`, excluding anything sharing stems with `avoid`. */
  function pickSimilar(pool: readonly string[], like: string, avoid: readonly string[], n: number): string[] {
    const candidates = [...new Set(pool)].filter((p) =>
      avoid.every((a) => p.toLowerCase() !== a.toLowerCase() && !sharesStem(p, a)),
    );
    candidates.sort(
      (a, b) => Math.abs(a.length - like.length) - Math.abs(b.length - like.length) || a.localeCompare(b),
    );
    const top = candidates.slice(0, n + 3);
    for (let i = top.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [top[i], top[j]] = [top[j]!, top[i]!];
    }
    return top.slice(0, n);
  }

  function mcq(
    slot: ISlot,
    f: IFact,
    prompt: string,
    correct: string,
    distractors: string[],
    why: string,
    rationale: (d: string) => string,
  ): TQuestion | null {
    if (distractors.length < 3) return null;
    const options = distractors.slice(0, 3).map((d) => capital(clip(d)));
    // The key's position rotates with the slot so a set never keeps it in one place.
    const correctIndex = (slot.index + Math.floor(seed % 4)) % 4;
    options.splice(correctIndex, 0, capital(clip(correct)));
    return {
      id: slot.id,
      type: "mcq",
      bloomLevel: slot.bloomLevel,
      promptText: prompt,
      marks: slot.marks,
      difficulty: slot.difficulty,
      options,
      correctIndex,
      explanation: why,
      distractorRationales: distractors.slice(0, 3).map(rationale),
      contextRefs: [refOf(f.chunkKey, f.sentence)],
      validation: { citationsOk: true, supported: true, bloomAgreed: true, regenerated: false, flags: [] },
      source: "offline",
    };
  }

  const defOf = (term: string) => definitions.find((d) => d.term === term)?.body;

  function buildMcq(slot: ISlot, f: IFact): TQuestion | null {
    const why = `The passage states: “${f.sentence}”`;
    const otherDefs = definitions
      .filter((d) => d.id !== f.id && d.term && f.term && !sharesStem(d.term, f.term))
      .map((d) => d.body);
    const termRationale = (d: string) =>
      `“${d}” is a different concept${defOf(d) ? ` — it is ${clip(defOf(d)!, 120)}` : ""}.`;
    const claimRationale = () =>
      "This attaches a description from elsewhere in the passage to the wrong concept.";
    if (f.kind === "definition" && f.term) {
      const term = f.term;
      switch (slot.bloomLevel) {
        case "Remember":
          return mcq(
            slot,
            f,
            `Which term is described by this statement: “${capital(f.body)}”?`,
            term,
            pickSimilar(terms, term, [term], 3),
            why,
            termRationale,
          );
        case "Understand":
          return mcq(
            slot,
            f,
            `Which statement best explains what ${term} ${isPluralNoun(term) ? "are" : "is"}?`,
            f.body,
            pickSimilar(otherDefs, f.body, [], 3),
            why,
            () => "This describes a different concept from the passage.",
          );
        case "Apply":
          return mcq(
            slot,
            f,
            `A student observes the following: “${capital(f.body)}”. Which concept does this situation illustrate?`,
            term,
            pickSimilar(terms, term, [term], 3),
            why,
            termRationale,
          );
        case "Analyze":
          return mcq(
            slot,
            f,
            `Analyze the description “${capital(f.body)}”. Which concept does it distinguish from the others listed?`,
            term,
            pickSimilar(terms, term, [term], 3),
            why,
            termRationale,
          );
        case "Evaluate":
          return mcq(
            slot,
            f,
            `Which claim about ${term} is best supported by the passage?`,
            `${term} is ${f.body}`,
            pickSimilar(otherDefs, f.body, [], 3).map((b) => `${term} is ${b}`),
            why,
            claimRationale,
          );
        case "Create":
          return mcq(
            slot,
            f,
            `A teacher wants to design a classroom demonstration of ${term}. Which plan fits the passage best?`,
            `Build a model or activity that shows ${term} as ${f.body}`,
            pickSimilar(otherDefs, f.body, [], 3).map(
              (b) => `Build a model or activity that shows ${term} as ${b}`,
            ),
            why,
            claimRationale,
          );
      }
    }
    if (f.kind === "cause" && f.cause) {
      const effects = facts.filter((o) => o.kind === "cause" && o.id !== f.id).map((o) => o.body);
      const pool = [...effects, ...definitions.map((d) => d.body)];
      if (slot.bloomLevel === "Create") {
        return mcq(
          slot,
          f,
          `Which investigation would best test the idea that “${f.cause}” affects the outcome described in the passage?`,
          `Change ${lower(clip(f.cause, 90))} while keeping other conditions the same, and observe whether ${lower(clip(f.body, 90))}`,
          pickSimilar(pool, f.body, [f.body], 3).map(
            (d) => `Change ${lower(clip(f.cause!, 90))} and observe whether ${lower(clip(d, 90))}`,
          ),
          why,
          () => "This tests an outcome the passage does not link to this cause.",
        );
      }
      const effectPool = pickSimilar(pool, f.body, [f.body], 3);
      const causePool = pickSimilar(
        facts.filter((o) => o.kind === "cause" && o.id !== f.id && o.cause).map((o) => o.cause!),
        f.cause,
        [f.cause],
        3,
      );
      const causeWhy = () => "The passage does not give this as the cause.";
      switch (slot.bloomLevel) {
        case "Remember":
          return mcq(
            slot,
            f,
            `Identify the reason the passage gives for the following: “${capital(f.body)}”`,
            f.cause,
            causePool,
            why,
            causeWhy,
          );
        case "Understand":
          return mcq(
            slot,
            f,
            `Which statement best explains why “${f.body}”?`,
            f.cause,
            causePool,
            why,
            causeWhy,
          );
        case "Apply":
          return mcq(
            slot,
            f,
            `In which situation would you predict the following: “${capital(f.body)}”?`,
            `When ${lower(f.cause)}`,
            causePool.map((c) => `When ${lower(c)}`),
            why,
            causeWhy,
          );
        case "Evaluate":
          return mcq(
            slot,
            f,
            `Which claim is best supported by the passage?`,
            f.sentence,
            effectPool.map((e) => `${capital(f.cause!)} leads to this: ${lower(e)}`),
            why,
            () => "The passage does not link this cause to this outcome.",
          );
        default:
          return mcq(
            slot,
            f,
            `According to the passage, what is the most direct effect of “${f.cause}”?`,
            f.body,
            effectPool,
            why,
            () => "The passage does not give this as the effect of that cause.",
          );
      }
    }
    // Statements, comparisons, quantities: a cloze on a key term, or a claim with a swapped term.
    // Whole words only: "heat transfer" must not blank out half of "heat transferred".
    let present = terms.filter((t) => mentions(f.sentence, t));
    // No key term in it: a multi-word noun phrase of the sentence itself can carry the cloze.
    if (present.length === 0)
      present = nounPhrases(f.sentence).filter((p) => p.includes(" ") && mentions(f.sentence, p));
    const term = present.sort((a, b) => b.length - a.length)[0];
    if (!term) return null;
    const others = pickSimilar(terms, term, [term], 3);
    if (slot.bloomLevel === "Evaluate") {
      const swap = (t: string) => f.sentence.replace(wordPattern(term), t);
      return mcq(
        slot,
        f,
        `Which claim is best supported by the passage on ${topicOf(f.chunkKey)}?`,
        f.sentence,
        others.map(swap),
        why,
        () => "This swaps in the wrong concept, so the passage does not support it.",
      );
    }
    const blank = f.sentence.replace(wordPattern(term), "_____");
    switch (slot.bloomLevel) {
      case "Understand":
        return mcq(
          slot,
          f,
          `Which option best explains what fills the gap in this statement: “${blank}”`,
          term,
          others,
          why,
          termRationale,
        );
      case "Apply":
        return mcq(
          slot,
          f,
          `Use the passage to predict the concept missing from this situation: “${blank}”`,
          term,
          others,
          why,
          termRationale,
        );
      case "Analyze":
        return mcq(
          slot,
          f,
          `Analyze this statement and choose the concept that completes it: “${blank}”`,
          term,
          others,
          why,
          termRationale,
        );
      case "Create": {
        const swapped = others.map((o) => f.sentence.replace(wordPattern(term), o));
        return mcq(
          slot,
          f,
          "Which plan would you design to demonstrate an idea that the passage supports?",
          `Design an activity showing that ${lower(f.sentence)}`,
          swapped.map((x) => `Design an activity showing that ${lower(x)}`),
          why,
          () => "This demonstrates a claim with the wrong concept in it.",
        );
      }
      default:
        return mcq(slot, f, `Fill in the blank: “${blank}”`, term, others, why, termRationale);
    }
  }

  function buildWritten(slot: ISlot, f: IFact): TQuestion | null {
    const term = f.term ?? terms.find((t) => mentions(f.sentence, t));
    const subject = term ?? topicOf(f.chunkKey);
    let prompt: string;
    switch (slot.bloomLevel) {
      case "Remember":
        prompt = term ? `Define ${term}.` : `State the key fact the passage gives about ${subject}.`;
        break;
      case "Understand":
        prompt = term
          ? `Explain in your own words what is meant by ${term}.`
          : `Explain the following idea from the passage: “${f.sentence}”`;
        break;
      case "Apply":
        prompt = `Give an example of a situation that illustrates ${subject}, and explain how the idea applies to it.`;
        break;
      case "Analyze":
        prompt = f.cause
          ? `Explain the relationship between “${clip(f.cause, 120)}” and the following outcome: “${f.body}”.`
          : `Analyze the statement “${f.sentence}”: break it into its parts and explain how they are connected.`;
        break;
      case "Evaluate":
        prompt = `Evaluate the statement “${f.sentence}” Is it supported by the passage? Justify your answer.`;
        break;
      default:
        prompt = f.cause
          ? `Design a simple investigation to test whether “${clip(f.cause, 120)}” leads to the outcome described in the passage. Say what you would change and what you would observe.`
          : `Design a simple activity or model that would demonstrate ${subject} to a classmate, based on the passage.`;
    }
    const quote = f.sentence;
    if (slot.type === "short") {
      return {
        id: slot.id,
        type: "short",
        bloomLevel: slot.bloomLevel,
        promptText: prompt,
        marks: slot.marks,
        difficulty: slot.difficulty,
        suggestedAnswer: quote,
        evaluatorKeywords: evaluatorKeywords(f.body),
        contextRefs: [refOf(f.chunkKey, quote)],
        validation: { citationsOk: true, supported: true, bloomAgreed: true, regenerated: false, flags: [] },
        source: "offline",
      };
    }
    // Long answers: the fact plus the sentences around it in its passage, one point each.
    const sentences = blockSentences(byKey.get(f.chunkKey)!.content, f.sentence).filter(
      (s) => s === f.sentence || isUsable(s),
    );
    const at = Math.max(0, sentences.indexOf(f.sentence));
    const points = [
      ...new Set([
        f.sentence,
        ...sentences.slice(at + 1, at + 4),
        ...sentences.slice(Math.max(0, at - 2), at),
      ]),
    ].slice(0, Math.min(5, Math.max(2, slot.marks)));
    const split = largestRemainder(
      Object.fromEntries(points.map((_, i) => [String(i), 1])),
      slot.marks,
      points.map((_, i) => String(i)),
    );
    const scheme = points
      .map((p, i) => ({ point: p, marks: split[String(i)] ?? 0 }))
      .filter((p) => p.marks > 0);
    return {
      id: slot.id,
      type: "long",
      bloomLevel: slot.bloomLevel,
      promptText: `${prompt} Support your answer with evidence from the passage.`,
      marks: slot.marks,
      difficulty: slot.difficulty,
      suggestedAnswer: scheme.map((p) => p.point).join(" "),
      evaluatorKeywords: evaluatorKeywords(scheme.map((p) => p.point).join(" "), 8),
      markingScheme: scheme,
      contextRefs: [refOf(f.chunkKey, scheme.map((p) => p.point).join(" "))],
      validation: { citationsOk: true, supported: true, bloomAgreed: true, regenerated: false, flags: [] },
      source: "offline",
    };
  }

  return {
    factCount: facts.length,
    terms,
    generate(slot, attempt = 0) {
      const kinds = PREFERRED[slot.bloomLevel];
      const sourceRank = (f: IFact) => {
        const i = slot.sourceKeys.indexOf(f.chunkKey);
        return i < 0 ? slot.sourceKeys.length : i;
      };
      const candidates = facts
        .filter((f) => !used.has(f.id) && (kinds.includes(f.kind) || attempt > 0))
        .sort(
          (a, b) =>
            (kinds.indexOf(a.kind) < 0 ? 9 : kinds.indexOf(a.kind)) -
              (kinds.indexOf(b.kind) < 0 ? 9 : kinds.indexOf(b.kind)) ||
            sourceRank(a) - sourceRank(b) ||
            b.weight - a.weight,
        );
      for (const f of candidates) {
        const q = slot.type === "mcq" ? buildMcq(slot, f) : buildWritten(slot, f);
        if (q) {
          used.add(f.id);
          return q;
        }
      }
      return attempt === 0 ? this.generate(slot, 1) : null;
    },
  };
}
