import { contentWords } from "@/lib/text/tokenize";
import { splitMcqOptions } from "./variants";

/**
 * Reading a pasted exam question (pure, no I/O): what marks it as set in an exam, its stem without
 * the numbering, marks and options, the stem's content words without the exam scaffolding
 * ("Which of the following statements is correct", "is known as", blanks), and, for a numeric
 * problem, the quantities its units and asks name (a 2 kg mass accelerating at 3 m/s² is about
 * mass, acceleration and force, not about "2" or "kg"). The planner searches the stem's content as
 * the main probe and the options as weaker probes.
 */

export type EExamCue =
  | "options"
  | "numbering"
  | "stem-cue"
  | "blank"
  | "marks"
  | "numeric"
  | "question"
  | "task";

export interface IExamQuestion {
  cues: EExamCue[];
  /** The question without its numbering, marks and options. */
  stem: string;
  options: string[];
  /** The stem's content words without scaffolding, in order (no numbers). */
  focusWords: string[];
  /** Quantities named by the units and the asked-for words of a numeric problem (empty otherwise). */
  quantities: string[];
  /**
   * Option agreement: content words that at least two options share and the stem does not have
   * ("acids", "bases" in four statements about acids and bases). What the options agree on is the
   * question's topic; what only one option says may be a distractor's sibling topic.
   */
  agreedWords: string[];
  /**
   * The asking sentence's content words when the stem sets a scene first ("Glucose … enters
   * intestinal cells by active transport. Why would intestinal cells use active transport when
   * most body cells use facilitated diffusion?"): what the question asks about, without the
   * scenario's everyday and example words (empty for a one-sentence stem; askingWords).
   */
  askWords: string[];
}

/** "Q3.", "3)", "Question 12:", "(iv)" at the very start. */
const NUMBERING_RE =
  /^\s*(?:(?:q(?:uestion)?\s*\.?\s*)\d{1,3}\s*[.):-]?|\d{1,3}\s*[.)]|\((?:\d{1,3}|[ivx]{1,4})\))\s+/i;
/** "(2 marks)", "[3]", "[1 mark]", "— 4 marks" at the end (or anywhere for the worded forms). */
const MARKS_RE = /\s*(?:[([]\s*\d{1,2}\s*(?:marks?|m)?\s*[)\]]\s*$|[-–—]?\s*\b\d{1,2}\s*marks?\b)/gi;

/** Stem phrases that say "this is an exam question" (never topic words). */
const STEM_CUE_RE =
  /\b(?:which|what) (?:one )?of the (?:following|above|these)\b|\b(?:all|none|each) of the (?:following|above)\b|\bwhich (?:one|statement|option|pair|choice)s?\b|\btrue or false\b|\bassertion\b|\bfill in the blanks?\b/i;

/**
 * An exam task: a command word opening the question or one of its sentences or clauses ("Describe
 * the structure of DNA.", "Aquaporins are… Based on their location, explain why…"). Only a
 * punctuated sentence counts (see readExamQuestion): a learning objective or a search is typed
 * without the full stop ("Explain how the nephron filters blood").
 */
const TASK_RE =
  /(?:^|[.?!;:]\s+|,\s+)(?:(?:briefly|then|also|now|and)\s+)?(?:explain|describe|compare|contrast|discuss|list|outline|summari[sz]e|justify|predict|suggest|evaluate|propose|distinguish|differentiate|analy[sz]e|assess|illustrate|identify|name|state|give|design|classify|interpret)\b/i;

/** A command word opening a sentence (TASK_RE's first alternative only). */
const TASK_START_RE =
  /^(?:(?:briefly|then|also|now|and)\s+)?(?:explain|describe|compare|contrast|discuss|list|outline|summari[sz]e|justify|predict|suggest|evaluate|propose|distinguish|differentiate|analy[sz]e|assess|illustrate|identify|name|state|give|design|classify|interpret)\b/i;

/**
 * Words an exam question wraps around its topic: the choice and judgement vocabulary, the question's
 * own verbs and nouns. Topic words never appear here (a subject's terms like "cell" or "force" stay).
 */
const SCAFFOLDING = new Set(
  `following above statement statements option options choice choices answer answers true false correct
  incorrect untrue best better describes describe described description explain explains define defined
  definition name named state states stated list give given identify identified choose select except
  likely least example examples called known termed term terms refer refers referred type types kind kinds
  characteristic characteristics feature features found true/false assertion reason question questions
  briefly short mark marks pair pairs one two three four statement/s consider considered shown show
  would could occur occurs occurring related relate relates associated involves involved include includes
  including many much compare contrast discuss outline summarize summarise justify predict suggest
  evaluate propose distinguish analyze analyse assess illustrate own words least minimum possible specific
  different differ differs difference differences provide main way ways happen happens happened
  think imagine suppose infer exactly situation explanation`
    .split(/\s+/)
    .filter(Boolean),
);

/** Unit (as written after a number) → the quantities it measures. Longest units first. */
const UNIT_QUANTITIES: readonly [RegExp, string[]][] = [
  [/^(?:m\/s\^?2|m\/s²|m s-2|m\/s\/s)$/, ["acceleration"]],
  [/^(?:kg ?m\/s|kg·m\/s|N ?s|N·s)$/, ["momentum", "impulse"]],
  [/^(?:m\/s|km\/h|km\/hr|mph|cm\/s)$/, ["speed", "velocity"]],
  [/^(?:kg|g|mg)$/, ["mass"]],
  [/^(?:N|kN)$/, ["force"]],
  [/^(?:J|kJ|MJ|eV|keV|MeV|cal|kcal)$/, ["energy", "work"]],
  [/^(?:W|kW|MW)$/, ["power"]],
  [/^(?:Pa|kPa|atm|mmHg)$/, ["pressure"]],
  [/^(?:Hz|kHz|MHz)$/, ["frequency"]],
  [/^(?:V|mV|kV)$/, ["voltage", "potential"]],
  [/^(?:A|mA)$/, ["current"]],
  [/^(?:Ω|ohms?|kΩ)$/, ["resistance"]],
  [/^(?:C|μC|µC|nC)$/, ["charge"]],
  [/^(?:°C|K|°F)$/, ["temperature"]],
  [/^(?:m³|m3|L|mL|cm³|cm3)$/, ["volume"]],
  [/^(?:m|km|cm|mm|nm|µm|μm)$/, ["distance"]],
  [/^(?:s|ms|min|h|hr|hrs)$/, ["time"]],
];

/** A number followed by a unit: "3 m/s²", "600 J", "2.5 h", "12 V". */
const QUANTITY_RE =
  /(?<![\p{L}\p{N}])[−-]?\d+(?:[.,]\d+)?(?:\s*[×x]\s*10\^?\(?[−-]?\d+\)?)?\s*([°]?[\p{L}µμΩω][\p{L}µμΩω·/^²³0-9-]*(?:\s?[sS](?![\p{L}]))?)/gu;

/** What a numeric problem asks for: "What is its power?", "Calculate the acceleration". */
const ASKED_RE =
  /\b(?:what is|what was|what will be|find|calculate|compute|determine|how (?:much|many|far|fast|long))\b(?: the| its| their| his| her)?((?:\s+[a-z-]+){1,3})/gi;

function unitQuantities(unit: string): string[] {
  const u = unit.replace(/[.,;:)]+$/, "");
  for (const [re, qs] of UNIT_QUANTITIES) if (re.test(u)) return qs;
  return [];
}

/** Quantities of a numeric problem, from its units (stem and options) and the words it asks for. */
export function numericQuantities(stem: string, options: readonly string[] = []): string[] {
  const out: string[] = [];
  const add = (w: string) => {
    if (!out.includes(w)) out.push(w);
  };
  let numbers = 0;
  for (const text of [stem, ...options]) {
    for (const m of text.matchAll(QUANTITY_RE)) {
      const qs = unitQuantities(m[1] ?? "");
      if (qs.length) numbers++;
      for (const q of qs) add(q);
    }
  }
  if (numbers === 0) return [];
  for (const m of stem.matchAll(ASKED_RE)) {
    for (const w of contentWords(m[1] ?? "").slice(0, 2)) if (!SCAFFOLDING.has(w)) add(w);
  }
  return out;
}

/** Most agreed option words added to the search (the stem stays the main evidence). */
const MAX_AGREED_WORDS = 4;

/** Content words shared by at least two options, not in the stem, most shared first. */
export function optionAgreement(options: readonly string[], stemWords: readonly string[]): string[] {
  if (options.length < 2) return [];
  const have = new Set(stemWords);
  const counts = new Map<string, { n: number; first: number }>();
  let order = 0;
  for (const option of options) {
    for (const w of new Set(focusWordsOf(option))) {
      if (have.has(w)) continue;
      const c = counts.get(w) ?? { n: 0, first: order++ };
      c.n++;
      counts.set(w, c);
    }
  }
  return [...counts.entries()]
    .filter(([, c]) => c.n >= 2)
    .sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first)
    .slice(0, MAX_AGREED_WORDS)
    .map(([w]) => w);
}

/** The stem's content words without exam scaffolding and numbers. */
export function focusWordsOf(stem: string): string[] {
  const text = stem
    .replace(STEM_CUE_RE, " ")
    .replace(/_{2,}/g, " ")
    .replace(QUANTITY_RE, (m, unit: string) => (unitQuantities(unit).length ? " " : m));
  return contentWords(text).filter((w) => !SCAFFOLDING.has(w) && !/^\d/.test(w));
}

/**
 * Reads a query as a pasted exam question. Returns null when nothing marks it as one (a topic, a
 * term, a request): at least one cue and a stem with content words.
 */
export function readExamQuestion(query: string): IExamQuestion | null {
  const cues: EExamCue[] = [];
  let text = query.replace(/\s+/g, " ").trim();
  if (NUMBERING_RE.test(text)) {
    cues.push("numbering");
    text = text.replace(NUMBERING_RE, "");
  }
  const withoutMarks = text.replace(MARKS_RE, " ").trim();
  if (withoutMarks !== text) {
    cues.push("marks");
    text = withoutMarks;
  }
  const mcq = splitMcqOptions(text);
  if (mcq) cues.push("options");
  const stem = (mcq?.stem ?? text).trim();
  const options = mcq?.options ?? [];
  if (STEM_CUE_RE.test(stem)) cues.push("stem-cue");
  if (/_{2,}/.test(stem)) cues.push("blank");
  if (/\?\s*$/.test(stem) || /:\s*$/.test(stem)) cues.push("question");
  if (TASK_RE.test(stem) && /[.?!]["”’)]?\s*$/.test(stem)) cues.push("task");
  const quantities = numericQuantities(stem, options);
  if (quantities.length) cues.push("numeric");
  const focusWords = focusWordsOf(stem);
  const agreedWords = optionAgreement(options, focusWords);
  if (cues.length === 0 || focusWords.length + agreedWords.length === 0) return null;
  const askWords = askingWords(stem, focusWords);
  return { cues, stem, options, focusWords, quantities, agreedWords, askWords };
}

/** Sentence ends: ". ", "? ", "! " before a capital, a digit or an opening quote or bracket. */
const SENTENCE_SPLIT_RE = /(?<=[.?!]["”’)]?)\s+(?=["“‘(]?[\p{Lu}\d])/u;
/** A sentence that asks: a question, or one opened by a command word (TASK_RE at its start). */
const ASKING_RE = /\?["”’)]?\s*$/;
/** Fewest content words an asking sentence needs to be searched on its own. */
const MIN_ASK_WORDS = 2;

/**
 * A stem that sets a scene before it asks (two or more sentences, at least one of them not
 * asking): the content words of its asking sentences (questions, command sentences), in order.
 * Empty when the stem is one sentence, when every sentence asks, when the asking sentences name
 * fewer than two content words ("How could this occur?") or all of the stem's.
 */
export function askingWords(stem: string, focusWords: readonly string[]): string[] {
  const sentences = stem
    .split(SENTENCE_SPLIT_RE)
    .map((s) => s.trim())
    .filter(Boolean);
  if (sentences.length < 2) return [];
  const asking = sentences.filter((s) => ASKING_RE.test(s) || TASK_START_RE.test(s));
  if (asking.length === 0 || asking.length === sentences.length) return [];
  const words = [...new Set(focusWordsOf(asking.join(" ")))];
  if (words.length < MIN_ASK_WORDS || words.length >= new Set(focusWords).size) return [];
  return words;
}

/**
 * The key-phrase probe of a long exam question: its `k` rarest content words in the scope (by the
 * scope's own passage frequency), in the question's order. A scenario ("A farmer raises black and
 * white chickens…") wraps a few specific terms in everyday words; the rare ones name what is
 * examined, and the scope's frequency, not a word list, says which are rare. Words the scope does
 * not use at all (df 0 or unknown) are left out: they cannot find a passage.
 */
export function keyPhraseWords(
  words: readonly string[],
  df: ReadonlyMap<string, number>,
  k: number,
): string[] {
  const unique = [...new Set(words)];
  const known = unique.filter((w) => (df.get(w) ?? 0) > 0);
  const rarest = new Set(
    [...known]
      .map((w, i) => ({ w, i, df: df.get(w) ?? 0 }))
      .sort((a, b) => a.df - b.df || a.i - b.i)
      .slice(0, k)
      .map((x) => x.w),
  );
  return known.filter((w) => rarest.has(w));
}
