import { contentWords, words } from "@/lib/text/tokenize";
import { BLOOM_DESCRIPTIONS, BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type {
  EGenerateScope,
  EQueryType,
  ERequestedQuestionType,
  IClassifyOptions,
  IQueryClassification,
  TAdjacentWindow,
} from "@/types/retrieval.types";
import {
  anyOf,
  COMPARE_CUES,
  COMPARE_JOINERS,
  COMPARE_OPENERS,
  CONCEPT_OPENER_STRIP,
  CONCEPT_OPENERS,
  DEFINITION_CLAUSE_CUES,
  DESCRIPTOR_BLOOM,
  DESCRIPTOR_WORDS,
  EXAM_STEM_CUES,
  EXAM_STEM_SCAFFOLDING,
  GENERATE_VERBS,
  LOOKUP_PATTERNS,
  NON_TOPIC_WORDS,
  NUMBER_WORDS,
  NUMERICAL_ASKS,
  OBJECT_FILLER_LINKS,
  OBJECT_FILLER_NOUNS,
  OBJECTIVE_LEADS,
  POLITE_WORDS,
  PROCEDURE_OPENER,
  PROCEDURE_RE,
  QUESTION_NOUNS,
  QUESTION_TYPE_CUES,
  REQUEST_OPENERS,
  RERANK_GUIDELINES,
  REVERSE_LOOKUP_PATTERNS,
  TOPIC_CONNECTORS,
  TRAILING_NOISE,
  TRAILING_QUESTION_NOUNS,
  UNDERSTANDING_OF,
  UNITS,
  VERBLESS_TOPIC_LINKS,
  wordsRe,
} from "./classify-rules";

/**
 * Deterministic query classifier. Every decision is a rule from classify-rules.ts (word lists and
 * small pattern tables) that leaves a reason, so a teacher (or the eval) can see why a query was
 * searched the way it was.
 */

interface ITypeProfile {
  alpha: number;
  fanoutMultiplier: number;
  adjacentWindow: TAdjacentWindow;
}

/**
 * alpha = vector weight. Terms and names are matched best by keywords (lookup); explanations are
 * phrased differently from the question, so meaning matters more (concept). Explanations and worked
 * examples span several chunks, hence the wider adjacent window.
 */
// The α values sit above an even split of influence because the vector leg is normalised as
// 1/(1+distance), which squeezes cosine distances into a narrow band (≈0.5–0.75) while BM25/max
// spans 0–1 (README, "Retrieval tuning notes").
export const TYPE_PROFILES: Record<EQueryType, ITypeProfile> = {
  lookup: { alpha: 0.45, fanoutMultiplier: 2, adjacentWindow: 0 },
  concept: { alpha: 0.8, fanoutMultiplier: 3, adjacentWindow: 2 },
  procedure: { alpha: 0.6, fanoutMultiplier: 3, adjacentWindow: 1 },
  compare: { alpha: 0.7, fanoutMultiplier: 4, adjacentWindow: 1 },
  generate: { alpha: 0.65, fanoutMultiplier: 4, adjacentWindow: 1 },
  general: { alpha: 0.65, fanoutMultiplier: 3, adjacentWindow: 1 },
};

/** A definition given with the term withheld shares meaning, not words, with the text. */
const REVERSE_LOOKUP_ALPHA = 0.75;

// ----------------------------------------------------------------------------- Bloom verbs

/** Revised-Bloom verbs beyond BLOOM_DESCRIPTIONS (both spellings, common synonyms). */
const EXTRA_BLOOM_VERBS: Record<EBloomLevel, string[]> = {
  Remember: [
    "recognize",
    "memorize",
    "memorise",
    "match",
    "select",
    "repeat",
    "recite",
    "reproduce",
    "locate",
  ],
  Understand: [
    "summarize",
    "outline",
    "paraphrase",
    "trace",
    "exemplify",
    "infer",
    "review",
    "understand",
    "elaborate",
    "express",
    "provide",
    "give",
    "distinguish between",
  ],
  Apply: ["find", "determine", "show", "execute", "implement", "measure", "estimate", "derive", "work out"],
  Analyze: ["analyze", "categorize", "organize", "investigate", "correlate", "explore"],
  Evaluate: ["appraise", "criticize", "criticise", "recommend", "validate", "weigh", "prioritize"],
  Create: ["develop", "compose", "invent", "hypothesize", "hypothesise", "build", "generate", "write"],
};

/** verb → level (first level listing a verb wins, so BLOOM_DESCRIPTIONS takes precedence). */
export const BLOOM_VERB_LEVEL: ReadonlyMap<string, EBloomLevel> = (() => {
  const map = new Map<string, EBloomLevel>();
  for (const level of BLOOM_LEVELS) {
    for (const v of [...BLOOM_DESCRIPTIONS[level].verbs, ...EXTRA_BLOOM_VERBS[level]]) {
      if (!map.has(v)) map.set(v, level);
    }
  }
  return map;
})();

/** Single-word verbs of one Bloom level (cue matching, query expansion). */
export function bloomVerbs(level: EBloomLevel): string[] {
  return [...BLOOM_VERB_LEVEL.entries()].filter(([v, l]) => l === level && !v.includes(" ")).map(([v]) => v);
}

/** Level of the first Bloom verb among the first `within` words, or undefined. */
export function bloomFromText(text: string, within = 3): EBloomLevel | undefined {
  const ws = words(text).slice(0, within);
  for (const w of ws) {
    const level = BLOOM_VERB_LEVEL.get(w);
    if (level && w !== "give" && w !== "write" && w !== "generate") return level;
  }
  return undefined;
}

// ----------------------------------------------------------------------------- normalisation

const NUMBER_WORD_RE = Object.keys(NUMBER_WORDS)
  .filter((w) => !w.includes("_"))
  .join("|");

export function normalizeQuery(query: string): string {
  return query
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .replace(/\p{Cc}/gu, " ")
    .replace(/[“”]/g, '"')
    .replace(/[‘’`]/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

function stripEndPunctuation(s: string): string {
  return s.replace(/[\s?.!;:,]+$/u, "").trim();
}

function parseCount(s: string): number | undefined {
  // "a 20-mark test" states marks, not a count.
  const digits = s.match(/\b(\d{1,3})\b(?![\s-]*marks?\b)/i);
  if (digits?.[1]) {
    const n = Number(digits[1]);
    return n > 0 && n <= 200 ? n : undefined;
  }
  const word = s.toLowerCase().match(new RegExp(`\\b(${NUMBER_WORD_RE})\\b`));
  return word?.[1] ? NUMBER_WORDS[word[1]] : undefined;
}

function chapterNumberIn(s: string): number | undefined {
  const m = s.match(/\b(?:chapter|chap\.?|ch\.?)\s*(\d{1,3})\b/i);
  return m?.[1] ? Number(m[1]) : undefined;
}

function questionTypeIn(s: string): ERequestedQuestionType | undefined {
  const t = s.toLowerCase();
  return QUESTION_TYPE_CUES.find(([, cues]) => wordsRe(cues).test(t))?.[0];
}

// ----------------------------------------------------------------------------- generate requests

const LEAD_IN_RE = new RegExp(`^(?:${anyOf(POLITE_WORDS)}[,\\s]+|${anyOf(REQUEST_OPENERS)} )+`, "i");
const GEN_VERB = anyOf(GENERATE_VERBS);
const Q_NOUN = anyOf(QUESTION_NOUNS);

function isDescriptor(text: string): boolean {
  const toks = text
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (toks.length > 7) return false;
  return toks.every(
    (t) =>
      DESCRIPTOR_WORDS.has(t) ||
      /^\d+$/.test(t) ||
      t in NUMBER_WORDS ||
      /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+$/u.test(t) ||
      /^\(.*\)$/.test(t),
  );
}

interface IGenerateParse {
  remainder: string;
  descriptor: string;
  bloomHint?: EBloomLevel;
  scope: EGenerateScope;
  chapterRef?: number;
  reasons: string[];
}

const OBJECTIVE_LEAD_RE = new RegExp(`^${anyOf(OBJECTIVE_LEADS)}`, "i");
const UNDERSTANDING_OF_RE = new RegExp(`^${UNDERSTANDING_OF}`, "i");
const TOPIC_CONNECTOR_RE = new RegExp(`^${anyOf(TOPIC_CONNECTORS)} `, "i");
const CHAPTER_LEAD_RE =
  /^(?:the\s+)?(?:whole\s+|entire\s+|full\s+|complete\s+)?chapter\b\s*(\d{1,3})?\s*(?:[:\-–—]\s*|(?:on|about|titled|called|named)\s+)?/i;
const OBJECT_FILLER_RE = new RegExp(
  `^(?:(?:an?|the|some) )?${anyOf(OBJECT_FILLER_NOUNS)} ${anyOf(OBJECT_FILLER_LINKS)} `,
  "i",
);

function stripTrailingNoise(s: string): string {
  let out = s;
  for (let i = 0; i < 3; i++) {
    const before = out;
    for (const { pattern } of TRAILING_NOISE) out = out.replace(pattern, "");
    if (out === before) break;
  }
  return out.trim();
}

function matchGenerateHead(text: string): { descriptor: string; rest: string; label: string } | undefined {
  const body = text.replace(LEAD_IN_RE, "");
  const head = new RegExp(
    `^${GEN_VERB}\\b\\s*(.{0,80}?)(?<![\\p{L}\\p{N}-])${Q_NOUN}\\b(?!-)((?:\\s+${Q_NOUN}\\b)*)(\\s*\\([^)]*\\))?`,
    "iu",
  );
  const m = body.match(head);
  if (m && isDescriptor(m[1] ?? "")) {
    return { descriptor: m[0], rest: body.slice(m[0].length), label: "instruction verb" };
  }
  // Verbless: "10 MCQs on photosynthesis", "quiz on chapter 5".
  const verbless = new RegExp(
    `^(.{0,40}?)(?<![\\p{L}\\p{N}-])${Q_NOUN}\\b(?!-)(\\s*\\([^)]*\\))?\\s+(?=${anyOf(VERBLESS_TOPIC_LINKS)}\\s)`,
    "iu",
  );
  const v = body.match(verbless);
  if (v && isDescriptor(v[1] ?? "")) {
    return { descriptor: v[0], rest: body.slice(v[0].length), label: "question request" };
  }
  // Trailing noun: "photosynthesis MCQs", "chapter 5 quiz".
  const trailing = new RegExp(
    `^(.{1,60}?)\\s+((?:[\\p{L}\\p{N}-]+\\s+){0,2}?)${anyOf(TRAILING_QUESTION_NOUNS)}$`,
    "iu",
  );
  const t = stripEndPunctuation(body).match(trailing);
  if (
    t &&
    words(body).length <= 8 &&
    !/^(?:what|which|why|how|who|when|where|is|are|do|does|can)\b/i.test(body)
  ) {
    if (isDescriptor(t[2] ?? ""))
      return { descriptor: t[2] ?? "", rest: t[1] ?? "", label: "trailing question noun" };
  }
  return undefined;
}

function parseGenerate(text: string): IGenerateParse | undefined {
  const head = matchGenerateHead(text);
  if (!head) return undefined;
  const reasons = [`"generate": the query asks for questions (${head.label})`];
  let rest = head.rest.trim();
  let bloomHint: EBloomLevel | undefined;
  let scope: EGenerateScope = "topic";
  let chapterRef: number | undefined;
  for (let i = 0; i < 6; i++) {
    const before = rest;
    const understanding = rest.match(UNDERSTANDING_OF_RE);
    if (understanding) {
      rest = rest.slice(understanding[0].length);
      bloomHint ??= "Understand";
    }
    const objective = rest.match(OBJECTIVE_LEAD_RE);
    if (objective) {
      rest = rest.slice(objective[0].length);
      const verb = rest.match(/^([a-z]+(?:\s+(?:and|or)\s+[a-z]+)?)\b\s*/i);
      const first = verb?.[1]?.split(/\s+/)[0]?.toLowerCase();
      const level = first ? BLOOM_VERB_LEVEL.get(first) : undefined;
      if (verb && level) {
        rest = rest.slice(verb[0].length);
        bloomHint = level;
        scope = "objective";
        reasons.push(`Bloom hint ${level} from the verb "${verb[1]}"`);
      }
    }
    const filler = rest.match(OBJECT_FILLER_RE);
    if (filler) rest = rest.slice(filler[0].length);
    const connector = rest.match(TOPIC_CONNECTOR_RE);
    if (connector) {
      if (/^explaining\b/i.test(connector[0])) bloomHint ??= "Understand";
      rest = rest.slice(connector[0].length);
    }
    const chapter = rest.match(CHAPTER_LEAD_RE);
    if (chapter && chapter[0].trim().length > 0) {
      scope = "chapter";
      if (chapter[1]) chapterRef = Number(chapter[1]);
      rest = rest.slice(chapter[0].length);
    }
    if (rest === before) break;
  }
  if (/\b(?:whole|entire|full|complete)\s+chapter\b|\bchapter[- ]wise\b|\bchapter\s*$/i.test(head.rest)) {
    scope = "chapter";
  }
  if (!bloomHint) {
    for (const { cues, level, label } of DESCRIPTOR_BLOOM) {
      if (wordsRe(cues).test(head.descriptor)) {
        bloomHint = level;
        reasons.push(`Bloom hint ${level} from "${label}" in the request`);
        break;
      }
    }
  }
  rest = stripTrailingNoise(stripEndPunctuation(rest));
  return { remainder: rest, descriptor: head.descriptor, bloomHint, scope, chapterRef, reasons };
}

// ----------------------------------------------------------------------------- other query types

interface IRuleMatch {
  type: EQueryType;
  searchText: string;
  reason: string;
  alpha?: number;
  bloomHint?: EBloomLevel;
}

type TRule = (text: string) => IRuleMatch | undefined;

const QUANTITY_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])[−-]?\\d+(?:[.,]\\d+)?\\s*(?:×\\s*10\\^?\\(?[−-]?\\d+\\)?\\s*)?${anyOf(UNITS)}(?![\\p{L}\\p{N}])`,
  "gu",
);

function countContent(s: string): number {
  return contentWords(s).length;
}

const reverseLookup: TRule = (text) => {
  const t = stripEndPunctuation(text);
  for (const re of REVERSE_LOOKUP_PATTERNS) {
    const m = t.match(re);
    if (m?.[1] && countContent(m[1]) >= 2) {
      return {
        type: "lookup",
        searchText: m[1].trim(),
        alpha: REVERSE_LOOKUP_ALPHA,
        bloomHint: "Remember",
        reason: '"lookup" (reverse): a description is given and the term is asked for; vector-leaning alpha',
      };
    }
  }
  return undefined;
};

const numerical: TRule = (text) => {
  const quantities = text.match(QUANTITY_RE) ?? [];
  const asks = text.includes("?") || wordsRe(NUMERICAL_ASKS).test(text);
  if (quantities.length === 0 || !asks) return undefined;
  const stripped = text
    .replace(QUANTITY_RE, " ")
    .replace(/^(?:calculate|compute|find|determine|solve(?: for)?|work out)\s+/i, "")
    .replace(/\s+/g, " ");
  return {
    type: "procedure",
    searchText: stripEndPunctuation(stripped),
    bloomHint: "Apply",
    reason: `"procedure": a numerical problem (${quantities.length} quantit${quantities.length === 1 ? "y" : "ies"} with units)`,
  };
};

const EXAM_STEM_RE = new RegExp(
  `\\b${anyOf(EXAM_STEM_CUES)}\\b|_{2,}|\\bis (?:known as|called|termed|referred to as) ?:? ?$`,
  "i",
);

function cleanExamStem(text: string): string {
  let out = text;
  for (const { pattern } of EXAM_STEM_SCAFFOLDING) out = out.replace(pattern, " ");
  return stripEndPunctuation(out.replace(/\s+/g, " "));
}

const examStem: TRule = (text) => {
  const sentences = text.split(/(?<=[.?!])\s+(?=[A-Z])/).filter((s) => s.trim().length > 0);
  const scenario = sentences.length >= 2 && /\?\s*$/.test(text) && words(text).length >= 15;
  if (!EXAM_STEM_RE.test(text) && !scenario) return undefined;
  return {
    type: "general",
    searchText: cleanExamStem(text),
    reason: scenario
      ? '"general": a multi-sentence exam-style scenario'
      : '"general": an exam-style question stem',
  };
};

const COMPARE_RE = wordsRe(COMPARE_CUES);
const COMPARE_OPENER_RE = new RegExp(`^${anyOf(COMPARE_OPENERS)} `, "i");

const compare: TRule = (text) => {
  if (!COMPARE_RE.test(text)) return undefined;
  const searchText = stripEndPunctuation(
    text.replace(COMPARE_OPENER_RE, "").replace(COMPARE_JOINERS, " and ").replace(/\s+/g, " "),
  );
  return {
    type: "compare",
    searchText,
    bloomHint: "Analyze",
    reason: '"compare": asks for differences or similarities between ideas',
  };
};

const procedureVerb: TRule = (text) => {
  if (!PROCEDURE_RE.test(text)) return undefined;
  return {
    type: "procedure",
    searchText: stripEndPunctuation(text.replace(PROCEDURE_OPENER, "")),
    bloomHint: "Apply",
    reason: '"procedure": asks how to solve, calculate or carry out steps',
  };
};

const lookup: TRule = (text) => {
  const t = stripEndPunctuation(text.replace(LEAD_IN_RE, ""));
  for (const { pattern, maxContentWords: maxContent, label } of LOOKUP_PATTERNS) {
    const m = t.match(pattern);
    const term = m?.[1]?.trim();
    if (!term) continue;
    const n = countContent(term);
    if (n === 0 || n > maxContent) continue;
    if (/[,;]|\b(?:and why|and how|when|while|because|if)\b/i.test(term) && label === "what is X") continue;
    return {
      type: "lookup",
      searchText: term.replace(/^(?:an?|the)\s+/i, ""),
      bloomHint: "Remember",
      reason: `"lookup": ${label} (keyword-heavy alpha)`,
    };
  }
  return undefined;
};

const CONCEPT_START_RE = new RegExp(`^${anyOf(CONCEPT_OPENERS)}\\b`, "i");

const concept: TRule = (text) => {
  const t = text.replace(LEAD_IN_RE, "");
  if (!CONCEPT_START_RE.test(t)) return undefined;
  const searchText = stripEndPunctuation(t.replace(CONCEPT_OPENER_STRIP, ""));
  return {
    type: "concept",
    searchText: searchText || stripEndPunctuation(t),
    bloomHint: bloomFromText(t, 2) ?? "Understand",
    reason: '"concept": asks for an explanation (vector-leaning alpha, wider adjacent window)',
  };
};

const bareTerm: TRule = (text) => {
  const t = stripEndPunctuation(text);
  const ws = words(t);
  if (ws.length === 0 || ws.length > 4 || /[?]/.test(text.slice(0, -1))) return undefined;
  if (/^(?:what|which|why|how|who|when|where|is|are|do|does|can|should)$/i.test(ws[0] ?? ""))
    return undefined;
  if (BLOOM_VERB_LEVEL.has(ws[0] ?? "")) return undefined;
  return {
    type: "lookup",
    searchText: t,
    bloomHint: "Remember",
    reason: '"lookup": a bare term (keyword-heavy alpha)',
  };
};

/** A noun phrase with a relative clause reads like a definition whose term is withheld. */
const definitionShaped: TRule = (text) => {
  const t = stripEndPunctuation(text);
  const ws = words(t);
  if (/\?/.test(text) || ws.length < 4 || ws.length > 40) return undefined;
  if (/^(?:what|which|why|how|who|when|where|is|are|do|does|can|the|a|an|this|these)$/i.test(ws[0] ?? "")) {
    return undefined;
  }
  if (BLOOM_VERB_LEVEL.has(ws[0] ?? "")) return undefined;
  if (!t.includes(";") && !wordsRe(DEFINITION_CLAUSE_CUES).test(t)) return undefined;
  return {
    type: "lookup",
    searchText: t,
    alpha: REVERSE_LOOKUP_ALPHA,
    bloomHint: "Remember",
    reason: '"lookup" (reverse): reads like a definition with the term withheld; vector-leaning alpha',
  };
};

const RULES: TRule[] = [
  reverseLookup,
  numerical,
  examStem,
  compare,
  procedureVerb,
  lookup,
  concept,
  bareTerm,
  definitionShaped,
];

// ----------------------------------------------------------------------------- assembly

export function topicTermsOf(searchText: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of contentWords(searchText)) {
    if (NON_TOPIC_WORDS.has(w) || /^\d+$/.test(w) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
  }
  return out;
}

function rerankGuidelinesFor(
  type: EQueryType,
  searchText: string,
  bloomHint: EBloomLevel | undefined,
  broad: boolean,
): string {
  const topic = searchText || "the topic";
  const broadNote = broad
    ? ", and cover different sections of the chapter rather than many passages from one section"
    : "";
  const base = RERANK_GUIDELINES[type].replace(/\{(topic|broad)\}/g, (_, key: string) =>
    key === "topic" ? topic : broadNote,
  );
  const bloom = bloomHint
    ? ` The target cognitive level is Bloom "${bloomHint}" (${BLOOM_DESCRIPTIONS[bloomHint].definition.toLowerCase()}); prefer passages that support questions at that level.`
    : "";
  return base + bloom;
}

function normalizeName(s: string): string {
  return contentWords(s).join(" ");
}

/** Classify a query and derive the knobs for the rest of the retrieval pipeline. */
export function classifyQuery(query: string, options: IClassifyOptions = {}): IQueryClassification {
  const text = normalizeQuery(query);
  const reasons: string[] = [];
  let type: EQueryType = "general";
  let searchText = stripEndPunctuation(text);
  let bloomHint: EBloomLevel | undefined;
  let alpha: number | undefined;
  let scope: EGenerateScope | undefined;
  let chapterRef = chapterNumberIn(text);
  let requestedCount: number | undefined;
  let requestedQuestionType: ERequestedQuestionType | undefined;

  const gen = parseGenerate(text);
  if (gen) {
    type = "generate";
    reasons.push(...gen.reasons);
    bloomHint = gen.bloomHint;
    scope = gen.scope;
    chapterRef = gen.chapterRef ?? chapterRef;
    requestedCount = parseCount(gen.descriptor);
    requestedQuestionType = questionTypeIn(gen.descriptor) ?? questionTypeIn(text);
    searchText = gen.remainder;
    if (gen.remainder !== stripEndPunctuation(text))
      reasons.push(`instruction words removed; searching "${gen.remainder}"`);
  } else {
    const match = RULES.reduce<IRuleMatch | undefined>((found, rule) => found ?? rule(text), undefined);
    if (match) {
      type = match.type;
      searchText = match.searchText;
      bloomHint = match.bloomHint;
      alpha = match.alpha;
      reasons.push(match.reason);
    } else {
      bloomHint = bloomFromText(text);
      reasons.push('"general": no specific pattern matched');
    }
  }

  if (chapterRef !== undefined) {
    const withoutChapter = searchText
      .replace(/\b(?:chapter|chap\.?|ch\.?)\s*\d{1,3}\b\s*[:\-–—]?\s*/i, "")
      .trim();
    if (countContent(withoutChapter) > 0) searchText = withoutChapter;
    if (type === "generate") scope = "chapter";
    reasons.push(`chapter ${chapterRef} named in the query`);
  }
  if (type === "generate" && options.chapters && options.chapters.length > 0) {
    const wanted = normalizeName(searchText.replace(/\s*\([^)]*\)\s*$/, ""));
    const hit = options.chapters.find((c) => normalizeName(c.name) === wanted);
    if (hit && wanted.length > 0) {
      scope = "chapter";
      chapterRef ??= hit.number;
      reasons.push(`"${hit.name}" is chapter ${hit.number}: chapter-wide request`);
    }
  }
  if (searchText.trim().length === 0) {
    // Nothing but an instruction and a chapter: the chapter filter does the work.
    searchText = chapterRef !== undefined ? `chapter ${chapterRef}` : stripEndPunctuation(text);
  }

  const broad = type === "generate" && scope === "chapter";
  if (broad) reasons.push("chapter-wide: results will be spread across the chapter's sections");
  if (bloomHint && !reasons.some((r) => r.includes("Bloom hint"))) reasons.push(`Bloom hint ${bloomHint}`);
  const profile = TYPE_PROFILES[type];
  return {
    type,
    alpha: alpha ?? profile.alpha,
    fanoutMultiplier: broad ? profile.fanoutMultiplier + 1 : profile.fanoutMultiplier,
    adjacentWindow: profile.adjacentWindow,
    searchText,
    topicTerms: topicTermsOf(searchText),
    ...(requestedCount !== undefined ? { requestedCount } : {}),
    ...(requestedQuestionType ? { requestedQuestionType } : {}),
    ...(chapterRef !== undefined ? { chapterRef } : {}),
    ...(scope ? { scope } : {}),
    broad,
    ...(bloomHint ? { bloomHint } : {}),
    rerankGuidelines: rerankGuidelinesFor(type, searchText, bloomHint, broad),
    reasons,
  };
}
