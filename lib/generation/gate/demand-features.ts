import { stem, words } from "@/lib/text/tokenize";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";

/**
 * What a question asks a student to do, as features for the Bloom demand estimator: the command
 * verb is one group among many. The others read the structure of the task — a computation with
 * numbers and units, a comparison of two things, a judgement asked of a claim, a design or plan, a
 * new situation, an explanation in one's own words, a recall cue ("what is", "how many") — and,
 * when the question has one, the structure of its answer and scheme: a number with a unit, a single
 * term, a reasoned explanation, a verdict with a justification, a method that varies, measures and
 * controls.
 */

/** Command verbs by level, after the common revised-Bloom verb lists (stemmed at load). */
const VERBS: Record<EBloomLevel, string[]> = {
  Remember: [
    "define",
    "list",
    "name",
    "state",
    "recall",
    "identify",
    "label",
    "recite",
    "recognise",
    "recognize",
    "repeat",
    "match",
    "memorise",
    "memorize",
    "quote",
    "locate",
    "tell",
    "enumerate",
    "mention",
    "reproduce",
    "record",
  ],
  Understand: [
    "explain",
    "describe",
    "summarise",
    "summarize",
    "paraphrase",
    "interpret",
    "classify",
    "discuss",
    "restate",
    "rewrite",
    "retell",
    "translate",
    "illustrate",
    "exemplify",
    "express",
    "report",
    "review",
    "outline",
    "clarify",
    "convert",
    "extend",
    "infer",
    "represent",
    "indicate",
  ],
  Apply: [
    "apply",
    "calculate",
    "compute",
    "solve",
    "use",
    "demonstrate",
    "show",
    "operate",
    "implement",
    "execute",
    "employ",
    "sketch",
    "determine",
    "find",
    "derive",
    "prove",
    "estimate",
    "draw",
    "plot",
    "practise",
    "practice",
    "manipulate",
    "complete",
    "simulate",
    "model",
    "dramatize",
    "dramatise",
    "specify",
    "obtain",
    "evaluate the",
  ],
  Analyze: [
    "analyse",
    "analyze",
    "compare",
    "contrast",
    "distinguish",
    "differentiate",
    "examine",
    "categorise",
    "categorize",
    "organise",
    "organize",
    "deconstruct",
    "investigate",
    "discriminate",
    "separate",
    "attribute",
    "diagram",
    "divide",
    "subdivide",
    "inspect",
    "survey",
    "relate",
    "question",
    "break",
    "correlate",
    "deduce",
    "test",
  ],
  Evaluate: [
    "evaluate",
    "assess",
    "judge",
    "justify",
    "critique",
    "criticise",
    "criticize",
    "defend",
    "argue",
    "appraise",
    "recommend",
    "rate",
    "rank",
    "prioritise",
    "prioritize",
    "decide",
    "conclude",
    "support",
    "weigh",
    "verify",
    "value",
    "debate",
    "convince",
    "grade",
    "measure",
    "select",
    "choose",
    "validate",
    "agree",
  ],
  Create: [
    "design",
    "create",
    "compose",
    "construct",
    "develop",
    "devise",
    "formulate",
    "invent",
    "plan",
    "propose",
    "generate",
    "produce",
    "build",
    "originate",
    "hypothesise",
    "hypothesize",
    "imagine",
    "combine",
    "compile",
    "integrate",
    "rearrange",
    "reorganise",
    "reorganize",
    "adapt",
    "improve",
    "modify",
    "make",
    "write",
    "prepare",
    "invent",
    "assemble",
    "elaborate",
    "suggest",
  ],
};

/** Stemmed verb → its level (the first list holding it wins, lower levels first). */
const VERB_LEVEL = new Map<string, EBloomLevel>();
for (const level of BLOOM_LEVELS)
  for (const v of VERBS[level])
    if (!v.includes(" ") && !VERB_LEVEL.has(stem(v))) VERB_LEVEL.set(stem(v), level);

/** Words before the command verb that do not change it ("Can you briefly explain …"). */
const FILLER = new Set([
  "can",
  "could",
  "would",
  "will",
  "you",
  "please",
  "briefly",
  "now",
  "then",
  "also",
  "and",
  "clearly",
  "neatly",
  "carefully",
  "try",
  "to",
  "further",
  "hence",
  "next",
  "finally",
  "first",
  "again",
  "q",
  "i",
  "ii",
  "iii",
  "iv",
  "a",
  "b",
  "c",
  "d",
]);

const UNIT =
  /\d\s*(?:%|°|mm|cm|km|m|kg|g|mg|s|ms|min|h|hz|khz|mhz|v|mv|kv|a|ma|w|kw|mw|j|kj|n|kn|pa|kpa|mpa|l|ml|mol|k|ω|ohms?|m\/s|m\/s2|m\/s\^2|rpm|db|bits?|bytes?|kb|mb|gb)\b/i;

const RX: [string, RegExp][] = [
  // Recall cues
  ["cue:what_is", /^\s*(?:what|which|who)\s+(?:is|are|was|were)\b/i],
  ["cue:wh_fact", /^\s*(?:who|when|where|in which|which year|in what year)\b/i],
  ["cue:how_many", /\bhow (?:many|much|long|far|old)\b/i],
  ["cue:which_of", /\bwhich (?:of the following|one|term|statement|option)\b/i],
  ["cue:called", /\b(?:is|are) (?:called|known as|termed|referred to as)\b|\bthe term (?:for|used)\b/i],
  ["cue:blank", /_{3,}/],
  ["cue:definition", /\b(?:definition|meaning of|what (?:is|are) meant by|what does .{1,40} mean)\b/i],
  [
    "cue:list_n",
    /\b(?:list|name|state|give|mention|enumerate)\s+(?:any\s+)?(?:two|three|four|five|six|\d+)\b/i,
  ],
  // Understanding cues
  ["cue:why", /\bwhy\b/i],
  ["cue:how", /^\s*how (?:does|do|is|are|can|did)\b/i],
  [
    "cue:own_words",
    /\b(?:in (?:your|one's|their) own words|paraphrase|restate|retell|summari[sz]e|main idea)\b/i,
  ],
  [
    "cue:example",
    /\b(?:give|provide|cite) (?:an |some |two |three )?examples?\b|\bfor example\b|\bexample of\b/i,
  ],
  ["cue:meaning", /\bwhat (?:does|do) .{1,60} (?:mean|represent|show|indicate)\b|\binterpret\b/i],
  // Application cues
  ["st:numbers", /\d[\d.,]*\D+\d/],
  ["st:unit", UNIT],
  ["st:equation", /=|\^|√|\bsin\b|\bcos\b|\blog\b|\bintegral\b|\bdx\b|[+*/]\s*\d/i],
  [
    "st:compute",
    /\b(?:calculate|compute|solve|find the (?:value|magnitude|current|voltage|force|speed|velocity|area|volume|number|rate|output|time|distance|energy|power)|determine the (?:value|magnitude|current|voltage|force|speed|velocity|area|volume|number|rate|output|time|distance|energy|power)|how (?:many|much|long|far) .* (?:if|when|given))\b/i,
  ],
  ["st:given", /\b(?:given|consider|suppose|assume|let)\b/i],
  [
    "st:following",
    /\b(?:the following|given below|shown (?:below|above|in)|below|above|figure|fig\.|table|diagram|circuit|program|code|fragment|data)\b/i,
  ],
  [
    "st:scenario",
    /^\s*(?:an?|the)\s+\w+(?:\s+\w+)?\s+(?:is|has|was|uses|wants|needs|observes|measures|drops|throws|pushes|walks|runs|travels|notices)\b|\ba (?:student|teacher|company|farmer|engineer|driver|person|man|woman|boy|girl|patient|scientist|car|ball|block)\b/i,
  ],
  [
    "st:what_if",
    /\bwhat (?:would|will|might|could) (?:happen|result|be the effect)|\bif .{3,80}(?:what|how) (?:would|will|might)\b|\bpredict\b|\bwhat (?:factors )?would you change\b/i,
  ],
  [
    "st:how_use",
    /\bhow (?:would|could|will|can|should) (?:you|one|someone|we) (?:use|apply|solve|modify|show|demonstrate|relate)\b|\b(?:using|use) (?:the|this|your|a|an) \w+(?: \w+)? (?:to|for)\b/i,
  ],
  [
    "st:procedure",
    /\b(?:algorithm|program|procedure|steps?|method|technique|formula|rule|law|principle|theorem|equation)\b/i,
  ],
  // Analysis cues
  [
    "st:compare",
    /\b(?:compare|contrast|distinguish|differentiate|difference(?:s)? between|differ(?:s|ent)? from|similarit(?:y|ies)|similar to|versus|vs\.?|relate|relationship between|advantages and disadvantages|pros and cons)\b/i,
  ],
  [
    "st:cause",
    /\b(?:cause|causes|effect of|effects of|affect|affects|leads? to|results? in|responsible for|role of|factors?|because|reason(?:s)? (?:for|why))\b/i,
  ],
  [
    "st:parts",
    /\b(?:break down|components?|parts? of|structure of|categor|classif|organi[sz]e|divide|elements? of|features? of|characteristics of|assumptions?|motive|inference|infer|evidence (?:for|of))\b/i,
  ],
  ["st:assertion", /\bassertion\b[\s\S]*\breason\b/i],
  // Evaluation cues
  [
    "st:judge",
    /\b(?:evaluate|assess|judge|justify|critique|criticis|criticiz|defend|argue|appraise|recommend|to what extent|how (?:effective|valid|important|well|useful)|is it (?:valid|fair|right|better|justified|worth)|worth|better|best|most (?:important|effective|appropriate|suitable|likely)|should|opinion|do you (?:agree|think|believe|feel)|would you (?:recommend|choose|prefer)|pros and cons|strengths? and weakness|merits)\b/i,
  ],
  [
    "st:claim",
    /\b(?:claims?|argues?|says|stated|states that|concludes?|believes?|suggests? that|thinks? that|insists?|asserts?)\b/i,
  ],
  [
    "st:verdict",
    /\b(?:agree|disagree|correct|incorrect|right|wrong|true|false|valid|supported)\b\??\s*(?:explain|justify|why|give)/i,
  ],
  ["st:criteria", /\b(?:criteria|standards?|evidence|justif|support your|reasons? for your)\b/i],
  // Creation cues
  [
    "st:design",
    /\b(?:design|devise|plan|propose|create|invent|compose|formulate|construct|develop|build|produce|generate|make up|come up with|write (?:a|an|your own) (?:poem|story|song|letter|play|program|plan|proposal|essay|report|script|speech|diary|advert|article|motto|slogan|new)|suggest (?:a|an|new|ways))\b/i,
  ],
  [
    "st:investigation",
    /\b(?:experiment|investigation|survey|study|test|procedure|model|prototype|hypothesis|questionnaire|solution|strategy|campaign|policy)\b/i,
  ],
  [
    "st:new",
    /\b(?:new|novel|original|alternative|unusual|innovative|own (?:way|version|design|model|plan|example|story)|your own)\b/i,
  ],
  ["st:imagine", /\b(?:imagine|pretend|suppose you|if you were|what if|role[- ]play)\b/i],
  // Form
  ["form:question_mark", /\?\s*$/],
  ["form:you", /\byou(?:r)?\b/i],
  [
    "form:two_tasks",
    /\b(?:and|then|also)\s+(?:explain|justify|give|state|describe|compare|suggest|discuss|calculate|show|draw)\b/i,
  ],
];

/** Answer and scheme structure (empty when the question has none, as in a text-only set). */
const ANSWER_RX: [string, RegExp][] = [
  ["ans:number", /^\s*[-−+]?\d[\d.,]*(?:\s*×\s*10\^?\(?[-−]?\d+\)?)?\s*[\p{L}/%°^·\d()−-]{0,12}\s*\.?\s*$/u],
  ["ans:worked", /=\s*[-−]?\d|\d\s*[×x*/]\s*\d/],
  ["ans:because", /\b(?:because|so that|therefore|thus|hence|as a result|which means|this is why|due to)\b/i],
  ["ans:compare", /\b(?:whereas|while|unlike|both|in contrast|on the other hand|than|similarly|differ)\b/i],
  [
    "ans:verdict",
    /\b(?:(?:is|was|are) (?:not )?(?:correct|incorrect|right|wrong|valid|supported|justified|mistaken)|agree|disagree|the (?:claim|student|conclusion) (?:is|was))\b/i,
  ],
  [
    "ans:design",
    /\b(?:independent|dependent|control(?:led)?|vary|varied|change only|keep .{1,40}(?:same|constant)|fair test|repeat|measure|record|range of)\b/i,
  ],
];

export const DEMAND_FEATURES = [
  "bias",
  ...BLOOM_LEVELS.map((l) => `cmd:${l}`),
  "cmd:none",
  "cmd:question",
  ...BLOOM_LEVELS.map((l) => `verb:${l}`),
  ...RX.map(([k]) => k),
  "len:short",
  "len:medium",
  "len:long",
  "len:very_long",
  "ans:none",
  "ans:term",
  "ans:long",
  ...ANSWER_RX.map(([k]) => k),
  "type:mcq",
  "type:short",
  "type:long",
  "marks:1",
  "marks:2-3",
  "marks:4+",
] as const;
export type EDemandFeature = (typeof DEMAND_FEATURES)[number];

const INDEX = new Map<string, number>(DEMAND_FEATURES.map((f, i) => [f, i]));

export interface IDemandInput {
  stem: string;
  /** The model answer, key or scheme text, when the question has one. */
  answer?: string;
  type?: "mcq" | "short" | "long";
  marks?: number;
}

/** The level of a word as a command verb, if it is one. */
export const verbLevel = (word: string): EBloomLevel | undefined => VERB_LEVEL.get(stem(word.toLowerCase()));

/** The leading command verb of the task (after numbering and "Can you", "Briefly", …). */
export function commandVerb(stemText: string): { word: string; level: EBloomLevel } | undefined {
  // The command is usually in the last sentence when a scenario comes first.
  const sentences = stemText
    .split(/(?<=[.?!:])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
  for (const sentence of [...sentences].reverse()) {
    const toks = words(sentence.replace(/^\s*(?:q?\d+[.)]|\(?[a-z]\)|\(?[ivx]+\))\s*/i, ""));
    for (const t of toks.slice(0, 6)) {
      const level = verbLevel(t);
      if (level) return { word: t, level };
      if (!FILLER.has(t) && !/^(?:how|in|using|with|by|from|for|the|this|these|given|on)$/.test(t)) break;
    }
  }
  return undefined;
}

/** Dense feature vector over DEMAND_FEATURES. */
export function demandFeatures(q: IDemandInput): number[] {
  const x = new Array<number>(DEMAND_FEATURES.length).fill(0);
  const on = (f: string, v = 1) => {
    const i = INDEX.get(f);
    if (i !== undefined) x[i] = v;
  };
  on("bias");
  const text = q.stem.replace(/\s+/g, " ").trim();
  const cmd = commandVerb(text);
  if (cmd) on(`cmd:${cmd.level}`);
  else if (
    /\?\s*$/.test(text) ||
    /^\s*(?:what|which|who|when|where|why|how|is|are|do|does|can)\b/i.test(text)
  )
    on("cmd:question");
  else on("cmd:none");
  for (const w of words(text)) {
    const level = verbLevel(w);
    if (level) on(`verb:${level}`);
  }
  for (const [k, re] of RX) if (re.test(text)) on(k);
  const n = words(text).length;
  on(n <= 6 ? "len:short" : n <= 15 ? "len:medium" : n <= 35 ? "len:long" : "len:very_long");
  const answer = (q.answer ?? "").trim();
  if (!answer) on("ans:none");
  else {
    const aw = words(answer).length;
    if (aw <= 4) on("ans:term");
    if (aw > 25) on("ans:long");
    for (const [k, re] of ANSWER_RX) if (re.test(answer)) on(k);
  }
  if (q.type) on(`type:${q.type}`);
  if (q.marks !== undefined) on(q.marks <= 1 ? "marks:1" : q.marks <= 3 ? "marks:2-3" : "marks:4+");
  return x;
}
