import type { EBloomLevel } from "@/types/bloom.types";
import type { EQueryType, ERequestedQuestionType } from "@/types/retrieval.types";

/**
 * The query classifier's rules as data: word lists and small pattern tables, so a reader can see
 * (and extend) what the classifier reacts to without reading regex soup. classify.ts holds the
 * logic that applies them. Queries are normalised first (single spaces, NFKC), so a space in a
 * pattern matches the one space between words.
 *
 * List entries are regex fragments: `questions?` is "question" or "questions", `summari[sz]e`
 * either spelling, `(?: me)?` an optional word.
 */

/** `(?:a|b|c)`. */
export const anyOf = (fragments: readonly string[]): string => `(?:${fragments.join("|")})`;

/** Whole-word test for any of the fragments (case-insensitive). */
export const wordsRe = (fragments: readonly string[]): RegExp => new RegExp(`\\b${anyOf(fragments)}\\b`, "i");

// ----------------------------------------------------------------------------- question types and counts

export const NUMBER_WORDS: Readonly<Record<string, number>> = {
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

/** Question formats a teacher can name, checked in this order (first match wins). */
export const QUESTION_TYPE_CUES: readonly [ERequestedQuestionType, readonly string[]][] = [
  ["case", ["case[- ]?(?:based|study|studies)", "source[- ]based", "passage[- ]based", "scenario[- ]based"]],
  ["mcq", ["mcqs?", "multiple[- ]choice", "objective[- ]type", "single[- ]correct"]],
  ["long", ["long[- ]answer", "essay", "descriptive", "detailed[- ]answer", "five[- ]mark", "5[- ]mark"]],
  [
    "short",
    [
      "short[- ]answer",
      "very[- ]short",
      "one[- ]word",
      "one[- ]mark",
      "two[- ]mark",
      "fill[- ]in[- ]the[- ]blanks?",
      "fill[- ]ups?",
    ],
  ],
];

// ----------------------------------------------------------------------------- generate requests

/** Politeness and request openers stripped before anything else ("please", "can you", "I need"). */
export const POLITE_WORDS = ["please", "kindly", "pls", "hey", "hi"];
export const REQUEST_OPENERS = [
  "(?:can|could|would|will) you(?: please)?",
  "i (?:need|want|would like)(?: you)?(?: to)?",
  "help me(?: to)?",
  "let'?s",
  "we need",
];

/** Verbs of a request for questions ("generate", "make", "give me" …). */
export const GENERATE_VERBS = [
  "generate",
  "create",
  "make",
  "write",
  "prepare",
  "give(?: me)?",
  "frame",
  "set",
  "draft",
  "compose",
  "produce",
  "build",
  "suggest",
  "design",
  "develop",
  "provide",
  "get me",
];

/** What a teacher asks for. */
export const QUESTION_NOUNS = [
  "questions?",
  "qs",
  "mcqs?",
  "blanks",
  "fill[- ]ups",
  "quiz(?:zes)?",
  "quizzes",
  "worksheets?",
  "problems?",
  "(?:question )?papers?",
  "tests?",
  "exams?",
  "assessments?",
  "exercises?",
  "flash ?cards?",
  "items",
  "assignments?",
  "homework",
  "numericals?",
  "puzzles?",
];

/** The same nouns when they close a short request ("photosynthesis MCQs"). */
export const TRAILING_QUESTION_NOUNS = [
  "mcqs?",
  "quiz(?:zes)?",
  "worksheets?",
  "numericals",
  "question papers?",
  "practice questions",
  "questions",
];

/** Prepositions that lead from "10 MCQs" to the topic in a verbless request. */
export const VERBLESS_TOPIC_LINKS = [
  "on",
  "about",
  "from",
  "covering",
  "for",
  "based on",
  "related to",
  "regarding",
];

/** Words that may sit between the verb and the noun ("a set of 10 short-answer"). */
export const DESCRIPTOR_WORDS: ReadonlySet<string> = new Set(
  `a an some few the set sets of couple more different new short long answer recall conceptual higher order
  application based case multiple choice objective subjective practice exam board level hots mark marks very
  difficult easy medium hard challenging tough simple basic advanced competency assertion reason true false fill
  in blank blanks type style word sample model important revision review quiz mcq mcqs each numerical numericals
  critical thinking thought provoking analytical creative open ended closed my our class unit test chapter end
  mixed varied good quality diverse challenging interesting fun quick`
    .split(/\s+/)
    .filter(Boolean),
);

/** Bloom level implied by how a request describes its questions (first row that matches wins). */
export const DESCRIPTOR_BLOOM: readonly { level: EBloomLevel; label: string; cues: readonly string[] }[] = [
  {
    level: "Analyze",
    label: "higher-order",
    cues: ["higher[- ]order", "hots", "analytical", "critical[- ]thinking"],
  },
  {
    level: "Apply",
    label: "application/problem",
    cues: ["application(?:[- ]based)?", "numericals?", "problems?"],
  },
  { level: "Apply", label: "case-based", cues: ["case[- ]?(?:based|study)"] },
  { level: "Remember", label: "recall", cues: ["recall", "fill[- ]in[- ]the[- ]blanks?", "one[- ]word"] },
  { level: "Understand", label: "conceptual", cues: ["conceptual", "understanding"] },
  { level: "Remember", label: "MCQ", cues: ["mcqs?", "multiple[- ]choice"] },
];

const LEARNERS = ["students?", "learners?", "pupils?"];

/**
 * How a request introduces a learning objective ("that ask students to explain …"); the verb after
 * it sets the Bloom hint.
 */
export const OBJECTIVE_LEADS = [
  `(?:that|which|to) (?:ask|asks|require|requires|get|gets|help|helps|make|makes|let|lets|have|has) (?:the )?${anyOf([...LEARNERS, "children", "kids"])} (?:to )?`,
  `asking (?:the )?(?:students?|learners?) to `,
  `(?:to|that|which) (?:test|tests|check|checks|assess|assesses|see|find out) (?:whether|if|how well) (?:the )?${anyOf(LEARNERS)} (?:can|could|are able to|understand how to) `,
  `(?:where|in which|wherein|so that|for which) (?:the )?${anyOf(LEARNERS)} (?:can |must |should |will |have to |need to |are asked to )?`,
  `for (?:the )?(?:students?|learners?) to `,
  `: ?`,
];

/** "to check students' understanding of …" (Bloom hint Understand). */
export const UNDERSTANDING_OF = `(?:to|that) (?:check|test|assess|gauge|evaluate) (?:the )?${anyOf(LEARNERS)}'?(?:'s)? (?:understanding|knowledge|grasp|comprehension) (?:of|about|on) `;

/** Words that lead from the request to its topic ("on", "about", "focusing on" …). */
export const TOPIC_CONNECTORS = [
  "on",
  "about",
  "covering",
  "for",
  "from",
  "based on",
  "related to",
  "regarding",
  "around",
  "of",
  "in",
  "testing",
  "to test",
  "that test",
  "that cover",
  "which cover",
  "explaining",
  "exploring",
  "dealing with",
  "focusing on",
  "focused on",
  "on the topic(?: of)?",
  "on the concept(?: of)?",
  "on the theme(?: of)?",
];

/** "ideas about", "experiments or models in" … before a topic. */
export const OBJECT_FILLER_NOUNS = [
  "ideas?",
  "claims?",
  "concepts?",
  "experiments?(?: or models?)?",
  "models?",
  "statements?",
  "arguments?",
  "scenarios?",
  "examples?",
  "facts?",
];
export const OBJECT_FILLER_LINKS = [
  "about",
  "in",
  "on",
  "of",
  "related to",
  "for",
  "involving",
  "around",
  "regarding",
];

/** Audience, answer-key and marks phrases at the end of a request that say nothing about the topic. */
export const TRAILING_NOISE: readonly { label: string; pattern: RegExp }[] = [
  { label: "class/grade", pattern: /\s+(?:for|in|of)\s+(?:class|grade|std\.?|standard|year|form)\s*\d+.*$/i },
  {
    label: "board",
    pattern: /\s+(?:for|in)\s+(?:the\s+)?(?:cbse|icse|igcse|ib|ap|state board|board exams?)\b.*$/i,
  },
  {
    label: "with answers",
    pattern: new RegExp(
      `\\s+with\\s+(?:(?:the|their|an?)\\s+)?${anyOf(["answers?", "answer keys?", "solutions?", "explanations?", "marking schemes?", "hints?"])}\\b.*$`,
      "i",
    ),
  },
  { label: "marks", pattern: /\s*[,(]?\s*(?:of|carrying|worth|for)?\s*\d+\s*marks?(?:\s+each)?\s*\)?$/i },
  { label: "audience", pattern: /\s+for\s+(?:my\s+|the\s+)?(?:students|class|learners|pupils|kids)$/i },
  {
    label: "difficulty",
    pattern: /\s+(?:of\s+)?(?:easy|medium|moderate|hard|mixed|varying)\s+(?:difficulty|level)$/i,
  },
  { label: "trailing 'chapter'", pattern: /\s+chapter$/i },
];

// ----------------------------------------------------------------------------- other query types

/** Aspects of a topic a question can ask about ("the role of", "the effects of" …). */
export const ASPECT_NOUNS = [
  "role",
  "roles",
  "function",
  "functions",
  "importance",
  "significance",
  "purpose",
  "effect",
  "effects",
  "impact",
  "cause",
  "causes",
  "process",
  "mechanism",
  "relationship",
  "relation",
  "difference",
  "differences",
  "reason",
  "reasons",
  "advantage",
  "advantages",
  "disadvantage",
  "disadvantages",
  "structure",
  "need",
  "working",
  "principle",
  "consequences?",
  "steps?",
  "stages?",
  "types?",
  "characteristics",
  "features",
  "properties",
  "components",
  "parts",
];

/** Units after a number make a numerical problem ("2.5 m/s", "3 × 10^8 m"). */
export const UNITS = [
  "m\\/s(?:\\^?2|²)?",
  "km\\/h(?:r)?",
  "mph",
  "kg",
  "mg",
  "g",
  "km",
  "cm",
  "mm",
  "nm",
  "µm",
  "μm",
  "m",
  "ms",
  "min",
  "hrs?",
  "h",
  "s",
  "N",
  "kN",
  "J",
  "kJ",
  "MJ",
  "W",
  "kW",
  "V",
  "mV",
  "kV",
  "A",
  "mA",
  "Ω",
  "ohms?",
  "Hz",
  "kHz",
  "MHz",
  "K",
  "°C",
  "°F",
  "mol",
  "L",
  "mL",
  "Pa",
  "kPa",
  "atm",
  "eV",
  "MeV",
  "C",
  "µC",
  "μC",
  "T",
  "rad\\/s",
  "rpm",
  "cal",
  "kcal",
  "dB",
  "m\\/s2",
];

/** What a numerical problem asks ("calculate", "how fast", a question mark). */
export const NUMERICAL_ASKS = [
  "calculate",
  "compute",
  "find",
  "determine",
  "what (?:is|was|will be)",
  "how (?:much|many|long|far|fast|high)",
];

const TERM_NOUNS = ["term", "name", "word", "scientific term", "technical term"];
const ENTITY_KINDS = [
  "process",
  "structure",
  "organelle",
  "phenomenon",
  "quantity",
  "force",
  "law",
  "effect",
  "property",
];
const NAMEABLE_KINDS = [
  "process",
  "structure",
  "organelle",
  "phenomenon",
  "quantity",
  "part",
  "organ",
  "cell",
  "tissue",
  "molecule",
  "law",
  "force",
  "property",
  "enzyme",
  "hormone",
];

/** A description is given and the term asked for; group 1 is the description. */
export const REVERSE_LOOKUP_PATTERNS: readonly RegExp[] = [
  new RegExp(
    `^(?:what(?:'s| is| are)) the ${anyOf(TERM_NOUNS)}s? (?:for|given to|used for|used to describe|that describes?|of) ?:? ?(.+)$`,
    "i",
  ),
  /^name the (?:concept|term) ?:? ?(.+)$/i,
  /^(?:give|state) the (?:term|name) (?:for|of) ?:? ?(.+)$/i,
  /^(?:the )?term for ?:? ?(.+)$/i,
  /^(.+?) ?[-–—:,]? ?what (?:is|are) (?:this|these|it|they|that) (?:called|known as|termed)$/i,
  /^what (?:do|does) (?:we|you|scientists|biologists|physicists) call (.+)$/i,
  new RegExp(
    `^what (?:is|are) (?:the )?${anyOf(ENTITY_KINDS)} (?:called|known as) (?:in which|by which|that|where|when)? ?(.+)$`,
    "i",
  ),
  new RegExp(
    `^name the (${anyOf(NAMEABLE_KINDS)} (?:that|which|by which|in which|where|who|responsible|used|of)\\b.+)$`,
    "i",
  ),
];

/** Marks of an exam stem: "which of the following", blanks, "true or false", "is called:". */
export const EXAM_STEM_CUES = [
  "which of the following",
  "(?:all|none|each) of the following",
  "true or false",
  "assertion",
  "which (?:one|statement|option|pair)s?",
  "(?:most|least) likely",
];

/** Scaffolding removed from an exam stem before searching (its topic words stay). */
export const EXAM_STEM_SCAFFOLDING: readonly { pattern: RegExp; label: string }[] = [
  { label: "blanks", pattern: /_{2,}/g },
  {
    label: "which of the following",
    pattern: /\b(?:which|none|all|each) of the following(?: statements?| options?)?\b/gi,
  },
  { label: "which one", pattern: /\b(?:which (?:one|statement|option|pair)s?)\b/gi },
  { label: "is not", pattern: /\b(?:is|are)\s+(?:not|NOT)\b/g },
  {
    label: "option words",
    pattern:
      /\b(?:NOT|EXCEPT|except|true or false|assertion|reason|correct|incorrect|best|most likely|least likely)\b/g,
  },
];

/** A comparison: two ideas set against each other. */
export const COMPARE_CUES = [
  "compare",
  "contrast",
  "distinguish",
  "differentiate",
  "difference(?:s)? between",
  "differ(?:s|ent)? from",
  "how (?:does|do|is|are) .+? differ",
  "vs\\.?",
  "versus",
  "similarities (?:and differences )?between",
  "compared (?:to|with)",
  "in contrast to",
  "as opposed to",
];

/** Openers of a comparison, stripped so both sides remain. */
export const COMPARE_OPENERS = [
  "compare and contrast",
  "compare",
  "contrast",
  "distinguish(?: between)?",
  "differentiate(?: between)?",
  "(?:the )?(?:main |key )?differences? between",
  "what (?:is|are) the (?:main |key )?(?:differences?|similarities(?: and differences)?) between",
  "give (?:the )?(?:differences?|similarities) between",
  "state (?:the )?differences? between",
  "how (?:does|do|is|are)",
];

/** Words between the two sides, replaced by "and". */
export const COMPARE_JOINERS =
  /\bdiffers?(?:ent)? from\b|\bvs\.?|\bversus\b|\bcompared (?:to|with)\b|\bin contrast to\b/gi;

const HOW_TO_LEADS = [
  "to",
  "do (?:you|i|we)",
  "can (?:you|i|we)",
  "would you",
  "should (?:i|we)",
  "is",
  "are",
];
const SOLVE_VERBS = [
  "calculate",
  "compute",
  "find",
  "determine",
  "solve",
  "derive",
  "measure",
  "convert",
  "balance",
  "draw",
  "construct",
  "plot",
  "estimate",
  "work out",
  "calculated",
  "measured",
  "derived",
  "determined",
  "found",
];
const IMPERATIVE_SOLVE_VERBS = ["calculate", "compute", "solve", "derive", "work out", "estimate"];
/** "find the velocity", "determine the current" … */
const PHYSICAL_QUANTITIES = [
  "value",
  "magnitude",
  "net",
  "total",
  "speed",
  "velocity",
  "acceleration",
  "force",
  "mass",
  "energy",
  "work",
  "power",
  "current",
  "resistance",
  "voltage",
  "frequency",
  "wavelength",
  "period",
  "time",
  "distance",
  "displacement",
  "height",
  "momentum",
  "pressure",
  "density",
];
const STEP_NOUNS = ["steps?", "procedure", "method", "algorithm"];
/** Word starts, so "calculat" covers calculate/calculating/calculation. */
const STEP_VERB_STARTS = [
  "calculat",
  "comput",
  "find",
  "solv",
  "determin",
  "deriv",
  "measur",
  "prepar",
  "perform",
  "balanc",
  "draw",
  "construct",
];

/** How to solve, calculate or carry out steps. */
export const PROCEDURE_RE = new RegExp(
  [
    `^(?:how ${anyOf(HOW_TO_LEADS)} ${anyOf(SOLVE_VERBS)}|${anyOf(IMPERATIVE_SOLVE_VERBS)}|(?:determine|find) the ${anyOf(PHYSICAL_QUANTITIES)})\\b`,
    `\\b${anyOf(STEP_NOUNS)} (?:to|for|of|involved in) ${anyOf(STEP_VERB_STARTS)}`,
    "\\b(?:numericals?|derivation|worked examples?)\\b",
  ].join("|"),
  "i",
);
/** Leading verbs removed from a procedure query. */
export const PROCEDURE_OPENER = /^(?:how to|calculate|compute|solve(?: for)?|work out) /i;

/** Term lookups: pattern (group 1 = the term), most content words the term may have, label. */
export const LOOKUP_PATTERNS: readonly { pattern: RegExp; maxContentWords: number; label: string }[] = [
  {
    pattern: /^(?:what|wat) (?:is|are|was|were|'s) meant by (?:the (?:term|word) )?(.+)$/i,
    maxContentWords: 6,
    label: "what is meant by",
  },
  {
    pattern: /^what do you (?:mean|understand) by (?:the (?:term|word) )?(.+)$/i,
    maxContentWords: 6,
    label: "what do you mean by",
  },
  {
    pattern: /^what (?:does|do) (?:the (?:term|word) )?(.+?) (?:mean|stand for)$/i,
    maxContentWords: 6,
    label: "what does X mean",
  },
  {
    pattern: /^(?:give (?:the |a )?)?(?:definition|meaning|full form) of (?:the (?:term|word) )?(.+)$/i,
    maxContentWords: 6,
    label: "definition of",
  },
  {
    pattern: /^(.+?)[\s:-]+(?:definition|meaning|defined|full form)$/i,
    maxContentWords: 6,
    label: "X definition",
  },
  { pattern: /^define (?:the (?:term|word) )?(.+)$/i, maxContentWords: 5, label: "define" },
  {
    pattern: /^(?:state|name|list|recall|identify|label)(?:\s+(?:and|or)\s+[a-z]+)? (.+)$/i,
    maxContentWords: 4,
    label: "recall verb",
  },
  {
    pattern: /^(?:who|when) (?:discovered|invented|proposed|coined|gave|introduced|first|is|was|did) (.+)$/i,
    maxContentWords: 6,
    label: "who/when fact",
  },
  {
    pattern:
      /^(?:what is|what are|give) (?:the )?((?:si unit|unit|units|formula|symbol|value|dimensions?) (?:of|for) .+)$/i,
    maxContentWords: 6,
    label: "unit/formula",
  },
  {
    pattern: /^explain (?:the (?:term|word|concept) )?(?!how\b|why\b|what\b|the\b|in\b|with\b)(.+)$/i,
    maxContentWords: 3,
    label: "explain X (a bare term)",
  },
  {
    pattern: new RegExp(
      `^(?:what|wat) (?:is|are|was|were|'s) (?!(?:an? |the )?${anyOf(ASPECT_NOUNS)}\\b)(?:an? |the )?(.+)$`,
      "i",
    ),
    maxContentWords: 4,
    label: "what is X",
  },
];

/** Verbs of explanation, stripped from a concept query ("explain", "write a short note on" …). */
const EXPLAIN_VERBS = [
  "explain",
  "describe",
  "discuss",
  "summari[sz]e",
  "outline",
  "elaborate(?: on)?",
  "illustrate",
  "trace",
  "interpret",
  "account for",
  "give (?:an )?account of",
  "write (?:a )?(?:short )?note on",
  "tell me about",
];

/** Openers of a request for an explanation (the explain verbs plus why/how and higher-order verbs). */
export const CONCEPT_OPENERS = [
  ...EXPLAIN_VERBS.slice(0, 9),
  "classify",
  "relate",
  ...EXPLAIN_VERBS.slice(9, 11),
  "give reasons?",
  ...EXPLAIN_VERBS.slice(11),
  "draw",
  "what happens",
  "why",
  "how (?:does|do|is|are|can|did|was|were|would|might|could|will)",
  "in what ways?",
  `what (?:is|are|was|were) (?:the )?${anyOf(ASPECT_NOUNS)}`,
  `${anyOf(ASPECT_NOUNS)} of`,
  "list",
  "identify",
  "recognize",
  "recognise",
  "evaluate",
  "justify",
  "assess",
  "predict",
  "propose",
  "design",
  "analy[sz]e",
  "examine",
  "investigate",
  "understand",
  "provide",
  "give examples?",
];
export const CONCEPT_OPENER_STRIP = new RegExp(
  `^${anyOf(EXPLAIN_VERBS)} (?:(?:briefly|in detail|with (?:an )?examples?) )?`,
  "i",
);

/** A relative clause or "used for" makes a noun phrase read like a definition with its term withheld. */
export const DEFINITION_CLAUSE_CUES = [
  "that",
  "which",
  "in which",
  "by which",
  "where",
  "whose",
  "containing",
  "consisting of",
  "used to",
  "used for",
  "responsible for",
];

/** Instruction and scaffolding words that say nothing about the topic. */
export const NON_TOPIC_WORDS: ReadonlySet<string> = new Set(
  `question questions mcq mcqs quiz worksheet students student learners chapter section topic explain describe define
  discuss definition meaning mean meant term word concept generate create make write prepare following called known`
    .split(/\s+/)
    .filter(Boolean),
);

/** What an LLM reranker is told to prefer for each query type (`{topic}` = the search text). */
export const RERANK_GUIDELINES: Record<EQueryType, string> = {
  lookup: `The user wants the definition or identity of "{topic}". Rank first passages that define it explicitly ("X is/are …", "… is called X", "known as X"), ideally in a section whose heading names it. Passages that merely mention it rank lower.`,
  concept: `The user wants an explanation of "{topic}". Prefer passages that explain causes, mechanisms and processes ("because", "therefore", "results in") in the section that covers the topic; prefer connected explanations over passing mentions or figure captions.`,
  procedure: `The user wants to solve a problem or follow steps about "{topic}". Prefer worked examples, equations with their variables explained, and step-by-step procedures; then passages that state the governing law or formula.`,
  compare: `The user wants to compare "{topic}". Prefer passages that discuss both sides and state differences or similarities ("whereas", "unlike", "in contrast", "both"); passages on only one side rank lower.`,
  generate: `A teacher will write questions on "{topic}". Prefer passages rich in testable content (definitions, facts, processes, examples) from the section(s) on this topic{broad}. Avoid passages that are only figure captions, credits or navigation.`,
  general: `Rank passages by how directly they answer "{topic}". Prefer the passage that contains the specific fact or explanation asked for over passages that only share vocabulary.`,
};
