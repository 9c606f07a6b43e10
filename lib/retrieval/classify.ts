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

/**
 * Deterministic query classifier. Every decision is a regex/lexicon rule that leaves a reason, so
 * a teacher (or the eval) can see why a query was searched the way it was.
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
// The α values are 0.15 above an even split of influence because the vector leg is normalised as
// 1/(1+distance), which squeezes cosine distances into a narrow band (≈0.5–0.75) while BM25/max
// spans 0–1; on the open eval the shift raised Recall@8 0.957 → 0.960 (nDCG@10 0.810 → 0.812).
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

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  twenty_five: 25,
  thirty: 30,
  dozen: 12,
};
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
  if (/\b(?:case[- ]?(?:based|study|studies)|source[- ]based|passage[- ]based|scenario[- ]based)\b/.test(t)) {
    return "case";
  }
  if (/\b(?:mcqs?|multiple[- ]choice|objective[- ]type|single[- ]correct)\b/.test(t)) return "mcq";
  if (/\b(?:long[- ]answer|essay|descriptive|detailed[- ]answer|five[- ]mark|5[- ]mark)\b/.test(t))
    return "long";
  if (
    /\b(?:short[- ]answer|very[- ]short|one[- ]word|one[- ]mark|two[- ]mark|fill[- ]in[- ]the[- ]blanks?|fill[- ]ups?)\b/.test(
      t,
    )
  ) {
    return "short";
  }
  return undefined;
}

// ----------------------------------------------------------------------------- generate requests

const LEAD_IN_RE =
  /^(?:(?:please|kindly|pls|hey|hi)[,\s]+|(?:can|could|would|will) you(?: please)?\s+|i (?:need|want|would like)(?: you)?(?: to)?\s+|help me(?: to)?\s+|let'?s\s+|we need\s+)+/i;
const GEN_VERB =
  "(?:generate|create|make|write|prepare|give(?: me)?|frame|set|draft|compose|produce|build|suggest|design|develop|provide|get me)";
const Q_NOUN =
  "(?:questions?|qs|mcqs?|blanks|fill[- ]ups|quiz(?:zes)?|quizzes|worksheets?|problems?|(?:question )?papers?|tests?|exams?|assessments?|exercises?|flash ?cards?|items|assignments?|homework|numericals?|puzzles?)";
/** Words that may sit between the verb and the noun ("a set of 10 short-answer"). */
const DESCRIPTOR_WORDS = new Set(
  `a an some few the set sets of couple more different new short long answer recall conceptual higher order
  application based case multiple choice objective subjective practice exam board level hots mark marks very
  difficult easy medium hard challenging tough simple basic advanced competency assertion reason true false fill
  in blank blanks type style word sample model important revision review quiz mcq mcqs each numerical numericals
  critical thinking thought provoking analytical creative open ended closed my our class unit test chapter end
  mixed varied good quality diverse challenging interesting fun quick`
    .split(/\s+/)
    .filter(Boolean),
);

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

const DESCRIPTOR_BLOOM: [RegExp, EBloomLevel, string][] = [
  [/\b(?:higher[- ]order|hots|analytical|critical[- ]thinking)\b/i, "Analyze", "higher-order"],
  [/\bapplication(?:[- ]based)?\b|\bnumericals?\b|\bproblems?\b/i, "Apply", "application/problem"],
  [/\bcase[- ]?(?:based|study)\b/i, "Apply", "case-based"],
  [/\brecall\b|\bfill[- ]in[- ]the[- ]blanks?\b|\bone[- ]word\b/i, "Remember", "recall"],
  [/\bconceptual\b|\bunderstanding\b/i, "Understand", "conceptual"],
  [/\bmcqs?\b|\bmultiple[- ]choice\b/i, "Remember", "MCQ"],
];

/** "that ask students to", "to test whether students can", "where students", ":" … */
const OBJECTIVE_LEAD_RE =
  /^(?:(?:that|which|to)\s+(?:ask|asks|require|requires|get|gets|help|helps|make|makes|let|lets|have|has)\s+(?:the\s+)?(?:students?|learners?|pupils?|children|kids)\s+(?:to\s+)?|asking\s+(?:the\s+)?(?:students?|learners?)\s+to\s+|(?:to|that|which)\s+(?:test|tests|check|checks|assess|assesses|see|find out)\s+(?:whether|if|how well)\s+(?:the\s+)?(?:students?|learners?|pupils?)\s+(?:can|could|are able to|understand how to)\s+|(?:where|in which|wherein|so that|for which)\s+(?:the\s+)?(?:students?|learners?|pupils?)\s+(?:can\s+|must\s+|should\s+|will\s+|have to\s+|need to\s+|are asked to\s+)?|for\s+(?:the\s+)?(?:students?|learners?)\s+to\s+|:\s*)/i;
const UNDERSTANDING_OF_RE =
  /^(?:to|that)\s+(?:check|test|assess|gauge|evaluate)\s+(?:the\s+)?(?:students?|learners?|pupils?)'?(?:'s)?\s+(?:understanding|knowledge|grasp|comprehension)\s+(?:of|about|on)\s+/i;
const TOPIC_CONNECTOR_RE =
  /^(?:on|about|covering|for|from|based on|related to|regarding|around|of|in|testing|to test|that test|that cover|which cover|explaining|exploring|dealing with|focusing on|focused on|on the topic(?: of)?|on the concept(?: of)?|on the theme(?: of)?)\s+/i;
const CHAPTER_LEAD_RE =
  /^(?:the\s+)?(?:whole\s+|entire\s+|full\s+|complete\s+)?chapter\b\s*(\d{1,3})?\s*(?:[:\-–—]\s*|(?:on|about|titled|called|named)\s+)?/i;
const OBJECT_FILLER_RE =
  /^(?:(?:an?|the|some)\s+)?(?:ideas?|claims?|concepts?|experiments?(?:\s+or\s+models?)?|models?|statements?|arguments?|scenarios?|examples?|facts?)\s+(?:about|in|on|of|related to|for|involving|around|regarding)\s+/i;
const TRAILING_NOISE_RES: RegExp[] = [
  /\s+(?:for|in|of)\s+(?:class|grade|std\.?|standard|year|form)\s*\d+.*$/i,
  /\s+(?:for|in)\s+(?:the\s+)?(?:cbse|icse|igcse|ib|ap|state board|board exams?)\b.*$/i,
  /\s+with\s+(?:(?:the|their|an?)\s+)?(?:answers?|answer keys?|solutions?|explanations?|marking schemes?|hints?)\b.*$/i,
  /\s*[,(]?\s*(?:of|carrying|worth|for)?\s*\d+\s*marks?(?:\s+each)?\s*\)?$/i,
  /\s+for\s+(?:my\s+|the\s+)?(?:students|class|learners|pupils|kids)$/i,
  /\s+(?:of\s+)?(?:easy|medium|moderate|hard|mixed|varying)\s+(?:difficulty|level)$/i,
  /\s+chapter$/i,
];

function stripTrailingNoise(s: string): string {
  let out = s;
  for (let i = 0; i < 3; i++) {
    const before = out;
    for (const re of TRAILING_NOISE_RES) out = out.replace(re, "");
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
    `^(.{0,40}?)(?<![\\p{L}\\p{N}-])${Q_NOUN}\\b(?!-)(\\s*\\([^)]*\\))?\\s+(?=(?:on|about|from|covering|for|based on|related to|regarding)\\s)`,
    "iu",
  );
  const v = body.match(verbless);
  if (v && isDescriptor(v[1] ?? "")) {
    return { descriptor: v[0], rest: body.slice(v[0].length), label: "question request" };
  }
  // Trailing noun: "photosynthesis MCQs", "chapter 5 quiz".
  const trailing =
    /^(.{1,60}?)\s+((?:[\p{L}\p{N}-]+\s+){0,2}?)(?:mcqs?|quiz(?:zes)?|worksheets?|numericals|question papers?|practice questions|questions)$/iu;
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
    for (const [re, level, label] of DESCRIPTOR_BLOOM) {
      if (re.test(head.descriptor)) {
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

const ASPECT_NOUNS =
  "(?:role|roles|function|functions|importance|significance|purpose|effect|effects|impact|cause|causes|process|mechanism|relationship|relation|difference|differences|reason|reasons|advantage|advantages|disadvantage|disadvantages|structure|need|working|principle|consequences?|steps?|stages?|types?|characteristics|features|properties|components|parts)";

const UNIT =
  "(?:m\\/s(?:\\^?2|²)?|km\\/h(?:r)?|mph|kg|mg|g|km|cm|mm|nm|µm|μm|m|ms|min|hrs?|h|s|N|kN|J|kJ|MJ|W|kW|V|mV|kV|A|mA|Ω|ohms?|Hz|kHz|MHz|K|°C|°F|mol|L|mL|Pa|kPa|atm|eV|MeV|C|µC|μC|T|rad\\/s|rpm|cal|kcal|dB|m\\/s2)";
const QUANTITY_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])[−-]?\\d+(?:[.,]\\d+)?\\s*(?:×\\s*10\\^?\\(?[−-]?\\d+\\)?\\s*)?${UNIT}(?![\\p{L}\\p{N}])`,
  "gu",
);

function countContent(s: string): number {
  return contentWords(s).length;
}

const reverseLookup: TRule = (text) => {
  const t = stripEndPunctuation(text);
  const patterns: RegExp[] = [
    /^(?:what(?:'s| is| are)) the (?:term|name|word|scientific term|technical term)s? (?:for|given to|used for|used to describe|that describes?|of)\s*:?\s*(.+)$/i,
    /^name the (?:concept|term)\s*:?\s*(.+)$/i,
    /^(?:give|state) the (?:term|name) (?:for|of)\s*:?\s*(.+)$/i,
    /^(?:the )?term for\s*:?\s*(.+)$/i,
    /^(.+?)\s*[-–—:,]?\s*what (?:is|are) (?:this|these|it|they|that) (?:called|known as|termed)$/i,
    /^what (?:do|does) (?:we|you|scientists|biologists|physicists) call (.+)$/i,
    /^what (?:is|are) (?:the )?(?:process|structure|organelle|phenomenon|quantity|force|law|effect|property) (?:called|known as) (?:in which|by which|that|where|when)?\s*(.+)$/i,
    /^name the ((?:process|structure|organelle|phenomenon|quantity|part|organ|cell|tissue|molecule|law|force|property|enzyme|hormone)\s+(?:that|which|by which|in which|where|who|responsible|used|of)\b.+)$/i,
  ];
  for (const re of patterns) {
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
  const asks =
    /\?|\b(?:calculate|compute|find|determine|what (?:is|was|will be)|how (?:much|many|long|far|fast|high))\b/i.test(
      text,
    );
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

const EXAM_STEM_RE =
  /\bwhich of the following\b|\b(?:all|none|each) of the following\b|_{2,}|\btrue or false\b|\bassertion\b|\bwhich (?:one|statement|option|pair)s?\b|\b(?:most|least) likely\b|\bis (?:known as|called|termed|referred to as)\s*:?\s*$/i;

function cleanExamStem(text: string): string {
  return stripEndPunctuation(
    text
      .replace(/_{2,}/g, " ")
      .replace(/\b(?:which|none|all|each) of the following(?: statements?| options?)?\b/gi, " ")
      .replace(/\b(?:which (?:one|statement|option|pair)s?)\b/gi, " ")
      .replace(/\b(?:is|are)\s+(?:not|NOT)\b/g, " ")
      .replace(
        /\b(?:NOT|EXCEPT|except|true or false|assertion|reason|correct|incorrect|best|most likely|least likely)\b/g,
        " ",
      )
      .replace(/\s+/g, " "),
  );
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

const compare: TRule = (text) => {
  const re =
    /\b(?:compare|contrast|distinguish|differentiate|difference(?:s)? between|differ(?:s|ent)? from|how (?:does|do|is|are) .+? differ|vs\.?|versus|similarities (?:and differences )?between|compared (?:to|with)|in contrast to|as opposed to)\b/i;
  if (!re.test(text)) return undefined;
  const searchText = stripEndPunctuation(
    text
      .replace(
        /^(?:compare and contrast|compare|contrast|distinguish(?: between)?|differentiate(?: between)?|(?:the )?(?:main |key )?differences? between|what (?:is|are) the (?:main |key )?(?:differences?|similarities(?: and differences)?) between|give (?:the )?(?:differences?|similarities) between|state (?:the )?differences? between|how (?:does|do|is|are))\s+/i,
        "",
      )
      .replace(
        /\bdiffers?(?:ent)? from\b|\bvs\.?|\bversus\b|\bcompared (?:to|with)\b|\bin contrast to\b/gi,
        " and ",
      )
      .replace(/\s+/g, " "),
  );
  return {
    type: "compare",
    searchText,
    bloomHint: "Analyze",
    reason: '"compare": asks for differences or similarities between ideas',
  };
};

const procedureVerb: TRule = (text) => {
  const re =
    /^(?:how (?:to|do (?:you|i|we)|can (?:you|i|we)|would you|should (?:i|we)|is|are)\s+(?:calculate|compute|find|determine|solve|derive|measure|convert|balance|draw|construct|plot|estimate|work out|calculated|measured|derived|determined|found)|calculate|compute|solve|derive|work out|estimate|determine the (?:value|magnitude|net|total|speed|velocity|acceleration|force|mass|energy|work|power|current|resistance|voltage|frequency|wavelength|period|time|distance|displacement|height|momentum|pressure|density)|find the (?:value|magnitude|net|total|speed|velocity|acceleration|force|mass|energy|work|power|current|resistance|voltage|frequency|wavelength|period|time|distance|displacement|height|momentum|pressure|density))\b|\b(?:steps?|procedure|method|algorithm) (?:to|for|of|involved in) (?:calculat|comput|find|solv|determin|deriv|measur|prepar|perform|balanc|draw|construct)|\bnumericals?\b|\bderivation\b|\bworked examples?\b/i;
  if (!re.test(text)) return undefined;
  return {
    type: "procedure",
    searchText: stripEndPunctuation(
      text.replace(/^(?:how to|calculate|compute|solve(?: for)?|work out)\s+/i, ""),
    ),
    bloomHint: "Apply",
    reason: '"procedure": asks how to solve, calculate or carry out steps',
  };
};

const lookup: TRule = (text) => {
  const t = stripEndPunctuation(text.replace(LEAD_IN_RE, ""));
  const patterns: [RegExp, number, string][] = [
    [/^(?:what|wat) (?:is|are|was|were|'s) meant by (?:the (?:term|word) )?(.+)$/i, 6, "what is meant by"],
    [/^what do you (?:mean|understand) by (?:the (?:term|word) )?(.+)$/i, 6, "what do you mean by"],
    [/^what (?:does|do) (?:the (?:term|word) )?(.+?) (?:mean|stand for)$/i, 6, "what does X mean"],
    [
      /^(?:give (?:the |a )?)?(?:definition|meaning|full form) of (?:the (?:term|word) )?(.+)$/i,
      6,
      "definition of",
    ],
    [/^(.+?)[\s:-]+(?:definition|meaning|defined|full form)$/i, 6, "X definition"],
    [/^define (?:the (?:term|word) )?(.+)$/i, 5, "define"],
    [/^(?:state|name|list|recall|identify|label)(?:\s+(?:and|or)\s+[a-z]+)? (.+)$/i, 4, "recall verb"],
    [
      /^(?:who|when) (?:discovered|invented|proposed|coined|gave|introduced|first|is|was|did) (.+)$/i,
      6,
      "who/when fact",
    ],
    [
      /^(?:what is|what are|give) (?:the )?((?:si unit|unit|units|formula|symbol|value|dimensions?) (?:of|for) .+)$/i,
      6,
      "unit/formula",
    ],
    [
      /^explain (?:the (?:term|word|concept) )?(?!how\b|why\b|what\b|the\b|in\b|with\b)(.+)$/i,
      3,
      "explain X (a bare term)",
    ],
    [
      new RegExp(
        `^(?:what|wat) (?:is|are|was|were|'s) (?!(?:an? |the )?${ASPECT_NOUNS}\\b)(?:an? |the )?(.+)$`,
        "i",
      ),
      4,
      "what is X",
    ],
  ];
  for (const [re, maxContent, label] of patterns) {
    const m = t.match(re);
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

const CONCEPT_START_RE = new RegExp(
  `^(?:explain|describe|discuss|summari[sz]e|outline|elaborate(?: on)?|illustrate|trace|interpret|classify|relate|account for|give (?:an )?account of|give reasons?|write (?:a )?(?:short )?note on|tell me about|draw|what happens|why|how (?:does|do|is|are|can|did|was|were|would|might|could|will)|in what ways?|what (?:is|are|was|were) (?:the )?${ASPECT_NOUNS}|${ASPECT_NOUNS} of|list|identify|recognize|recognise|evaluate|justify|assess|predict|propose|design|analy[sz]e|examine|investigate|understand|provide|give examples?)\\b`,
  "i",
);

const concept: TRule = (text) => {
  const t = text.replace(LEAD_IN_RE, "");
  if (!CONCEPT_START_RE.test(t)) return undefined;
  const searchText = stripEndPunctuation(
    t.replace(
      /^(?:explain|describe|discuss|summari[sz]e|outline|elaborate(?: on)?|illustrate|trace|interpret|account for|give (?:an )?account of|write (?:a )?(?:short )?note on|tell me about)\s+(?:(?:briefly|in detail|with (?:an )?examples?)\s+)?/i,
      "",
    ),
  );
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
  if (
    !/;|\b(?:that|which|in which|by which|where|whose|containing|consisting of|used to|used for|responsible for)\b/i.test(
      t,
    )
  ) {
    return undefined;
  }
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

/** Instruction and scaffolding words that say nothing about the topic. */
const NON_TOPIC_WORDS = new Set(
  `question questions mcq mcqs quiz worksheet students student learners chapter section topic explain describe define
  discuss definition meaning mean meant term word concept generate create make write prepare following called known`
    .split(/\s+/)
    .filter(Boolean),
);

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
  const base: Record<EQueryType, string> = {
    lookup: `The user wants the definition or identity of "${topic}". Rank first passages that define it explicitly ("X is/are …", "… is called X", "known as X"), ideally in a section whose heading names it. Passages that merely mention it rank lower.`,
    concept: `The user wants an explanation of "${topic}". Prefer passages that explain causes, mechanisms and processes ("because", "therefore", "results in") in the section that covers the topic; prefer connected explanations over passing mentions or figure captions.`,
    procedure: `The user wants to solve a problem or follow steps about "${topic}". Prefer worked examples, equations with their variables explained, and step-by-step procedures; then passages that state the governing law or formula.`,
    compare: `The user wants to compare "${topic}". Prefer passages that discuss both sides and state differences or similarities ("whereas", "unlike", "in contrast", "both"); passages on only one side rank lower.`,
    generate: `A teacher will write questions on "${topic}". Prefer passages rich in testable content (definitions, facts, processes, examples) from the section(s) on this topic${broad ? ", and cover different sections of the chapter rather than many passages from one section" : ""}. Avoid passages that are only figure captions, credits or navigation.`,
    general: `Rank passages by how directly they answer "${topic}". Prefer the passage that contains the specific fact or explanation asked for over passages that only share vocabulary.`,
  };
  const bloom = bloomHint
    ? ` The target cognitive level is Bloom "${bloomHint}" (${BLOOM_DESCRIPTIONS[bloomHint].definition.toLowerCase()}); prefer passages that support questions at that level.`
    : "";
  return base[type] + bloom;
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
