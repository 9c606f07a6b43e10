import nlp from "compromise";
import { coverage, stemSet } from "@/lib/generation/gate/text";
import type { ISentence } from "@/lib/generation/offline/knowledge";
import { FEATURE_BOX } from "@/lib/generation/offline/knowledge/sentences";
import { contentWords } from "@/lib/text/tokenize";
import type { TQuestion } from "@/types/generation.types";
import {
  capital,
  clip,
  formUseKey,
  type IForm,
  type IFormEnv,
  mcq,
  stripEnd,
  topicName,
  written,
} from "./common";
import { LEANS_ON_CONTEXT } from "./recall";
import { ABOUT_NAMES } from "./relations";

/**
 * Statements made false by reversing the one comparison or direction word a passage sentence
 * holds ("bogs have low productivity" → "high productivity", "increases" → "decreases"): the text
 * itself states the opposite, so the false version is provably false, and it reads exactly like
 * the true ones (no "not" that gives it away). Two forms use them:
 *  - "Which statement about <topic> is correct?" (Remember: recognise a stated fact among
 *    reversed ones);
 *  - a student's notes with reversed statements to find and correct (Remember, written: spotting
 *    a flipped word is recall of the stated fact, whatever the prompt's verb).
 */

/**
 * Candidates a statement form proposes per slot: the best-ranked passages come first, and each
 * candidate costs the gate a full reading (a slot nothing fits would otherwise read 40).
 */
const MAX_CANDIDATES = 24;

/** Pairs of words whose swap reverses a statement; each direction is listed. */
const OPPOSITES: Record<string, string> = {};
for (const [a, b] of [
  ["increase", "decrease"],
  ["increases", "decreases"],
  ["increased", "decreased"],
  ["increasing", "decreasing"],
  ["higher", "lower"],
  ["high", "low"],
  ["larger", "smaller"],
  ["inside", "outside"],
  ["inner", "outer"],
  // Not ["before", "after"]: round 8 readers rejected every such swap (an anecdote's order of events,
  // "slides a short distance before/after friction slows it"): it tests reading, not science.
  ["positive", "negative"],
  ["positively", "negatively"],
  ["dominant", "recessive"],
  ["haploid", "diploid"],
  ["hydrophobic", "hydrophilic"],
  ["aerobic", "anaerobic"],
  ["faster", "slower"],
  ["longer", "shorter"],
  ["stronger", "weaker"],
  ["strong", "weak"],
  ["maximum", "minimum"],
  ["endothermic", "ectothermic"],
  ["exothermic", "endothermic"],
  ["exergonic", "endergonic"],
  ["anabolic", "catabolic"],
  ["hypertonic", "hypotonic"],
  ["afferent", "efferent"],
  ["xylem", "phloem"],
  ["endocytosis", "exocytosis"],
  ["autotrophs", "heterotrophs"],
  ["unicellular", "multicellular"],
  ["homozygous", "heterozygous"],
  ["sporophyte", "gametophyte"],
  ["innate", "adaptive"],
  ["maternal", "paternal"],
  ["maternally", "paternally"],
  ["polar", "nonpolar"],
  ["saturated", "unsaturated"],
  ["oxygenated", "deoxygenated"],
  ["systemic", "pulmonary"],
  ["open", "closed"],
  ["inhalation", "exhalation"],
  ["contraction", "relaxation"],
  ["contracts", "relaxes"],
  ["depolarization", "hyperpolarization"],
  ["permeable", "impermeable"],
  ["soluble", "insoluble"],
  ["rapidly", "slowly"],
  ["thicker", "thinner"],
  ["thick", "thin"],
  ["internal", "external"],
  ["leading", "lagging"],
  ["upstream", "downstream"],
  ["attracts", "repels"],
  ["attract", "repel"],
  ["attraction", "repulsion"],
  ["prokaryotes", "eukaryotes"],
  ["prokaryote", "eukaryote"],
  ["prokaryotic", "eukaryotic"],
  ["arteries", "veins"],
  ["artery", "vein"],
  ["vertebrates", "invertebrates"],
  ["genotype", "phenotype"],
  ["inspiration", "expiration"],
  ["parallel", "perpendicular"],
  ["conductors", "insulators"],
  ["conductor", "insulator"],
  ["elastic", "inelastic"],
  ["convex", "concave"],
  ["converging", "diverging"],
  ["transverse", "longitudinal"],
  // Not ["reflection", "refraction"]: "refraction causes a wave to change direction" stays true.
  ["vector", "scalar"],
  ["clockwise", "counterclockwise"],
  ["electrons", "protons"],
  ["electron", "proton"],
  ["gain", "lose"],
  ["gains", "loses"],
  ["gained", "lost"],
  ["absorb", "release"],
  ["absorbs", "releases"],
  ["absorbed", "released"],

  ["more", "less"],
  ["most", "least"],
  ["heavier", "lighter"],
  ["warmer", "cooler"],
  ["rises", "falls"],
  ["raises", "lowers"],
  ["stimulates", "inhibits"],
  ["activates", "inhibits"],
  ["promotes", "inhibits"],
  ["excitatory", "inhibitory"],
  ["sympathetic", "parasympathetic"],
  ["anterior", "posterior"],
  ["dorsal", "ventral"],
  ["upper", "lower"],
  ["younger", "older"],
] as const) {
  OPPOSITES[a] ??= b;
  OPPOSITES[b] ??= a;
}
// "Light falls on the mirror" does not reverse to "rises on": only "rises" is reversed.
delete OPPOSITES.falls;
const SWAP_WORD = new RegExp(`\\b(?:${Object.keys(OPPOSITES).join("|")})\\b`, "gi");

/** A statement that holds only with qualifications, or already negated: reversing it proves nothing. */
const UNSAFE =
  /\b(?:not|no|never|cannot|n't|neither|nor|either|often|usually|sometimes|may|might|can|could|some|many|generally|typically|probably|likely|approximately|respectively|versus|vs|unless|except|will|would|should)\b|[%=]/i;

/** Words reversed only as verbs ("cells gain water"), never as nouns ("a gain", "the release of"). */
const VERB_ONLY =
  /^(?:gain|gains|gained|lose|loses|lost|absorb|absorbs|absorbed|release|releases|released)$/i;

/** Names of things (not qualities), reversed only where they are the thing itself. */
const NAME_WORD =
  /^(?:electrons?|protons?|arter(?:y|ies)|veins?|prokaryotes?|eukaryotes?|conductors?|insulators?|vector|scalar|genotype|phenotype|vertebrates|invertebrates|xylem|phloem|sporophyte|gametophyte|inspiration|expiration)$/i;

/** Openings that lean on what came before or speak to the reader: not a statement to offer alone. */
const OPENER =
  /^(?:but|and|so|or|yet|altogether|now|perhaps|even|after all|additionally|furthermore|moreover|however|therefore|thus|hence|in addition|similarly|likewise|finally|undoubtedly|certainly|of these|as shown|of course|in fact|interestingly|remember|imagine|consider|use|note|suppose|let|recall|here|again|still|indeed|clearly|obviously|surprisingly|fortunately|unfortunately|in other words|that is)\b/i;
/** A judgement, not a fact: "even more interesting" reversed is not provably false. */
const EVALUATIVE =
  /^(?:interesting|bizarre|important|useful|desirable|undesirable|surprising|remarkable|striking|amazing|significant|exciting|fascinating|difficult|easy|famous|popular|likely|beautiful|dramatic|confusing|complicated|challenging|intuitive)$/i;
/** Adverbs that qualify the wording, not the subject ("more precisely", "less formally"). */
const HEDGE_ADVERB =
  /^(?:precisely|accurately|specifically|generally|broadly|formally|informally|correctly|properly|simply|strictly|loosely|exactly|technically|commonly|importantly|simply|concisely)\b/i;
/** Symbols of an equation or a quantity name ("ΔS_envir", "θ_c"): the statement is not plain prose. */
const MATH = /[_=^ΔθλμΣπ√]/;

export interface ISwap {
  sentence: ISentence;
  /** The reversed statement. */
  text: string;
  from: string;
  to: string;
}

function keepCase(word: string, like: string): string {
  return /^\p{Lu}/u.test(like) ? capital(word) : word;
}

const reversed = new Map<string, Omit<ISwap, "sentence"> | null>();

/**
 * The sentence with its direction word reversed, or null when that would not clearly be false.
 * Memoised by text: every candidate question reads the reversals of its neighbours, and each
 * costs a part-of-speech reading.
 */
export function reverse(s: ISentence): ISwap | null {
  let hit = reversed.get(s.text);
  if (hit === undefined) {
    const r = reverseText(s);
    hit = r ? { text: r.text, from: r.from, to: r.to } : null;
    if (reversed.size > 5000) reversed.clear();
    reversed.set(s.text, hit);
  }
  return hit ? { ...hit, sentence: s } : null;
}

/** `reverse` of a clause that is not a passage sentence of its own (a cause, a law's body), cited to `chunkKey`. */
export const reverseClause = (text: string, chunkKey: string): ISwap | null =>
  reverse({ text, chunkKey, heading: "", section: "", position: 0, sideBox: false, standalone: true });

/**
 * Definitions and constants are not reversed (round 6 readers: a "reversed" definition or a stated
 * constant read as still true, or as a trick): only a stated quality, direction or change is.
 */
const NOT_REVERSIBLE =
  /\b(?:is|are) (?:defined as|called|known as|termed|referred to as|the name)\b|\b(?:refers to|is defined)\b|\bconstant\b|\bby convention\b|^(?:an?\s+|the\s+)?[\p{L}’'-]+(?:\s+[\p{L}’'-]+){0,3}\s+(?:is|are)\s+an?\s/iu;

function reverseText(s: ISentence): ISwap | null {
  const text = stripEnd(s.text);
  const hits = [...text.matchAll(SWAP_WORD)];
  if (
    hits.length === 0 ||
    hits.length > 2 ||
    NOT_REVERSIBLE.test(text) ||
    UNSAFE.test(text) ||
    ABOUT_NAMES.test(text) ||
    LEANS_ON_CONTEXT.test(text)
  )
    return null;
  // Two direction words that answer each other ("from low to high") cannot be reversed one at a time.
  if (hits.length === 2 && OPPOSITES[hits[0]![0].toLowerCase()] === hits[1]![0].toLowerCase()) return null;
  const words = text.split(/\s+/).length;
  if (words < 7 || words > 32 || contentWords(text).length < 5) return null;
  // The last one: in "as A increases, B increases" it is the consequence that is reversed. But
  // "more oxygen than warmer water" reverses the comparison, not the thing compared to
  // (round 8: "Cold water has more dissolved oxygen than cooler water").
  const last = hits[hits.length - 1]!;
  const compared = hits.length === 2 && /\bthan\s+$/i.test(text.slice(0, last.index ?? 0));
  const hit = compared ? hits[0]! : last;
  const from = hit[0];
  const at = hit.index ?? 0;
  // A compound ("high-energy", "Gram-negative") or a bound phrase ("at least") is not a claim to reverse.
  if (/-$/.test(text.slice(0, at)) || text.charAt(at + from.length) === "-") return null;
  // Bound phrases: "at least", "after all", "one or more", "until after".
  if (/\b(?:at|or|and|until)\s$/i.test(text.slice(0, at)) || /^after all\b/i.test(text.slice(at)))
    return null;
  const after = text.slice(at + from.length);
  // Round 8 readers: a swap that reads as nonsense, found by wording alone, tests nothing.
  // "open or close" → "closed or close"; "inside and outside" are a pair, not a claim.
  if (/^\s+(?:or|and|nor)\b/i.test(after)) return null;
  // "gametophyte (2n)", "heterotrophs (chemoautotrophs)": the parenthesis still names the original.
  if (/^\s*\(/.test(after)) return null;
  // A word inside an aside ("grown in a culture (outside the body …)") is a side detail, and the
  // sentence around it gives the swap away (round 12 readers).
  const before = text.slice(0, at);
  if ((before.match(/\(/g) ?? []).length > (before.match(/\)/g) ?? []).length) return null;
  // "crushed into smaller pieces" → "larger pieces": common sense, not the science.
  if (/\binto\s$/i.test(text.slice(0, at))) return null;
  // "the dominant phylum" (most common) is not genetics: "recessive phylum" is a malapropism.
  if (
    /^(?:dominant|recessive)$/i.test(from) &&
    !/\b(?:allele|gene|trait|inherit|genotyp|phenotyp|offspring)/i.test(text)
  )
    return null;
  // "released as pollen" → "absorbed as pollen": only matter or energy is absorbed or released.
  if (
    VERB_ONLY.test(from) &&
    /^(?:absorb|release)/i.test(from) &&
    !/\b(?:energy|heat|light|radiation|photons?|water|oxygen|carbon dioxide|CO2|ions?|gas|nutrients?|hormones?|neurotransmitters?|electrons?)\b/i.test(
      text,
    )
  )
    return null;
  if (VERB_ONLY.test(from) && !nlp(text).match(from).has("#Verb")) return null;
  // A noun naming part of a compound ("electron transport chain", "proton pump") is not a claim.
  if (NAME_WORD.test(from) && nlp(text).match(`${from} #Noun`).found) return null;
  // Pairs that are opposites only in one context: "the leading cause of death" is not a strand,
  // "adaptive radiation" is not immunity (readers would read "lagging cause", "innate radiation").
  if (/^(?:leading|lagging)$/i.test(from) && !/^\s+strands?\b/i.test(text.slice(at + from.length)))
    return null;
  if (/^(?:innate|adaptive)$/i.test(from) && !/\bimmun|\bresponse|\bdefen[cs]e/i.test(text)) return null;
  // Pairs that are opposites only in one context: the circulation's circuits, a body's layers.
  if (/^(?:systemic|pulmonary)$/i.test(from) && !/\bcircula|\bcircuit|\bblood\b/i.test(text)) return null;
  if (
    /^(?:internal|external)$/i.test(from) &&
    /^\s*(?:stimul|signal|factor|cue|environment)/i.test(text.slice(at + from.length))
  )
    return null;
  let to = keepCase(OPPOSITES[from.toLowerCase()]!, from);
  // "more X than Y" compares amounts: "less X than Y" is its reversal whatever X is.
  if (!compared && /^(?:more|less|most|least)$/i.test(from)) {
    // Only a comparison of a quality reverses cleanly ("more derived" → "less derived", "the most
    // common" → "the least common"); "most mammals" becomes "few mammals", "more evidence" is left.
    const next =
      text
        .slice(at + from.length)
        .trim()
        .split(/\s+/)[0] ?? "";
    // "or, more precisely, toward the centre": a remark on the wording, not a claim to reverse.
    if (EVALUATIVE.test(next) || HEDGE_ADVERB.test(next)) return null;
    const adjective = nlp(next).has("#Adjective") || nlp(next).has("#Adverb");
    const superlative = /(?:\bthe|['’]s|\bits|\btheir)\s$/i.test(text.slice(0, at));
    // "most mammals", "most terrestrial ecosystems": a quantity, reversed to "few"; "the most
    // common": a superlative, reversed to "the least common".
    if (/^most$/i.test(from) && !superlative) {
      // "few" counts: "most activation" (a mass noun) has no countable reversal.
      if (next === "of" || !(adjective || nlp(next).has("#Plural"))) return null;
      // "is most intense" (a quality) → "least intense"; "most mammals" (a count) → "few mammals".
      // "Most imperfect fungi live on land": an adjective before a plural noun is still a count
      // (round 15 reading: "Least imperfect fungi …").
      const then =
        text
          .slice(at + from.length)
          .trim()
          .split(/\s+/)[1] ?? "";
      const count =
        nlp(next).has("#Plural") ||
        (adjective && nlp(then).has("#Plural") && !/\b(?:is|are|was|were|be)\s$/i.test(text.slice(0, at)));
      to = keepCase(count ? "few" : "least", from);
    } else if (!adjective) return null;
  }
  const swapped = `${text.slice(0, at)}${to}${text.slice(at + from.length)}`;
  // "an" / "a" before the swapped word must still agree ("an increase" → "a decrease").
  const fixed = swapped.replace(/\b(a|an|A|An) (\S+)/g, (m, art: string, w: string) => {
    if (w !== to) return m;
    const vowel = /^[aeiou]/i.test(w);
    const want = vowel ? "an" : "a";
    return `${/^A/.test(art) ? capital(want) : want} ${w}`;
  });
  return { sentence: s, text: `${fixed}.`, from: from.toLowerCase(), to: to.toLowerCase() };
}

/** Openings that point back to what came before (round 8: "By comparison, …", "Among other things, …"). */
const BACK_OPENER =
  /^(?:by comparison|in comparison|for comparison|in contrast|by contrast|among other things|with that|given that|as a result|for (?:this|that) reason|for example|for instance|some of|one of|both of|each of|on the other hand|as such|at this point|otherwise|conversely|instead|rather|however|nonetheless|nevertheless|moreover|furthermore|in addition|additionally|likewise|similarly|once again|in this case|in that case|in summary|in short|to summarize|overall|through two|the following)\b/i;
/** Words that refer to something outside the sentence (round 8: "are thus", "effective at this"). */
const POINTS_BACK =
  /\b(?:this|these|those(?! of)|such(?! as| that| a way)|the latter|the former|aforementioned|here|the two|the three|in parentheses)\b|(?<![,;]\s)\b(?:thus|hence|therefore)\b/i;
/** "The only …", "The same …", "A less precise definition": a comparison with something not shown. */
const RELATIVE_SUBJECT =
  /^(?:the|a|an)\s+(?:only|same|other|resulting|remaining|next|previous|latter|former|(?:more|less)\s+\p{L}+(?![^,;]*\bthan\b))\b/iu;
/** A year or past-tense narrative ("was developed", "had to be"): history and anecdote, not a stated fact. */
const NARRATIVE =
  /\b(?:seemed|showed|estimated|proposed|announced|invented|banned|resolved|launched)\b|\b1[5-9]\d\d\b|\b20[0-4]\d\b/i;
/** Past tense with no present-tense verb ("Perrin showed …", "The rail was connected …"). */
const pastTense = (t: string) =>
  !/\b(?:is|are|has|have|can|do|does)\b/i.test(t) && !nlp(t).has("#PresentTense") && nlp(t).has("#PastTense");
/** A drawing the reader cannot see ("the thick black lines in the circuit diagram"). */
const PICTURE = /\b(?:diagram|photograph|photo|image|drawing|sketch|illustrat\w*|shown)\b/i;

/** A thing named before, in an example or a figure ("The effect is caused by …", "The process …"). */
const BACK_NOUN =
  /^the\s+(?:effect|result|process|disconnect|imbalance|difference|change|problem|reason|idea|situation|case|answer|method|technique|procedure|experiment|setup|device|apparatus|arrangement|system shown)\b/i;
/** The props of a worked example or a figure ("the child", "the puck", "the pump", "one rope"). */
const PROP =
  /\b(?:the|one|each|this|that)\s+(?:child|children|puck|pump|spheres?|rope|ropes|balls?|car|cart|block|box|wagon|skier|baby|person|student|man|woman|boy|girl|rods?|balloons?|drop|missile|rail|engineers?|dryer|slide|bulb|bulbs|bar magnets?)\b/i;

/**
 * Why a sentence does not read as a statement of the subject without its passage, or null: a
 * pointer back ("By comparison", "thus", "at this", "another"), a pronoun with no noun before it
 * ("Energy exchanges between them"), a story in the past tense ("Hitler banned", "had to be"), a
 * drawing, or a thing named before or in a figure ("The effect …", "The child …", "The pump …").
 * Round 8 readers flagged about 30 options and notes as fragments.
 */
export function fragmentReason(text: string): string | null {
  const t = stripEnd(text);
  if (BACK_OPENER.test(t)) return "opens by pointing back";
  if (POINTS_BACK.test(t)) return "points back";
  // "another internal force" points back; "from one cell to another", "one another" do not.
  if (/\banother\b/i.test(t) && !/\bone\b[^.]*\banother\b/i.test(t)) return "points back";
  if (RELATIVE_SUBJECT.test(t)) return "compares with something not shown";
  if (NARRATIVE.test(t)) return "tells a story";
  if (PICTURE.test(t)) return "describes a drawing";
  if (BACK_NOUN.test(t) || PROP.test(t)) return "names a thing from an example or a figure";
  // "are stored", "is located": a passive in the present is not a story.
  if (pastTense(t)) return "past tense";
  // "they / them / their" need a plural noun or an "X and Y" before them; "it / its" a noun.
  const pronoun = /\b(they|them|their|it|its)\b/i.exec(t);
  if (pronoun) {
    const before = t.slice(0, pronoun.index);
    const plural = /^(?:they|them|their)$/i.test(pronoun[1]!);
    const antecedent = plural
      ? nlp(before).has("#Plural") || /\w\s+and\s+\w/i.test(before)
      : nlp(before).has("#Noun");
    if (!antecedent) return "pronoun with no noun before it";
  }
  return null;
}

export const selfContained = (text: string): boolean => fragmentReason(text) === null;

const storyCache = new WeakMap<object, Set<string>>();
/**
 * Blocks that tell a story (half or more of their sentences in the past tense or dated: the
 * Manhattan project, a missile launch): none of their sentences is a statement of the subject,
 * even one in the present tense (round 8 readers: "trivia has no place on a physics paper").
 */
function storyBlocks(env: IFormEnv): Set<string> {
  let out = storyCache.get(env.kb);
  if (!out) {
    const count = new Map<string, [number, number]>();
    for (const s of env.kb.sentences) {
      const key = `${s.chunkKey}|${s.heading}`;
      const [n, story] = count.get(key) ?? [0, 0];
      count.set(key, [n + 1, story + (NARRATIVE.test(s.text) || pastTense(s.text) ? 1 : 0)]);
    }
    out = new Set([...count].filter(([, [n, story]]) => n >= 4 && story * 2 >= n).map(([k]) => k));
    storyCache.set(env.kb, out);
  }
  return out;
}

/** Lesson sentences that can be offered as statements: standalone, not a side box, not about names. */
/**
 * A statement offered as true must be a plain fact of the subject: not a guess ("could perhaps
 * have a similar effect"), a person's story ("his or her face will distort"), nor a comparison
 * with something not shown ("a similar effect", "the same way").
 */
const HEDGED_OR_PERSONAL =
  /\b(?:perhaps|possibly|could|might|may|his|her|he|she|believe[sd]?|think|thought)\b|\ba similar\b|\bthe same\b(?![^,.;]*\b(?:as|to)\b)/i;
/** A simulation's controls ("Keeping the velocity marker near zero …"): the screen, not the subject. */
const ON_SCREEN =
  /\b(?:markers?|sliders?|buttons?|click(?:ing)?|drag(?:ging)?|simulations?|applets?|checkbox(?:es)?|on the screen)\b/i;
/** A simulation's or a lab's instruction ("Vary the velocity by sliding the markers"): not a statement. */
const imperative = (text: string) =>
  /^\p{L}+\s+(?:the|a|an|your|each|this|these|that|those|some|one|two|three|all|any)\b/iu.test(text) &&
  nlp(text.split(/\s+/)[0] ?? "").has("#Infinitive");

/** The forms that ask passage statements as true or reversed (this file's two). */
const STATEMENT_FORMS = ["statement-mcq", "spot-the-error"] as const;

function statements(env: IFormEnv): ISentence[] {
  const stories = storyBlocks(env);
  return env.kb.sentences.filter(
    (s) =>
      // A sentence another statement question of the set already cites (the slot search marks it
      // by form): a second "Which statement … is NOT correct?" on it is the same fact again, which
      // the gate refuses — it would only use up the slot's candidates.
      !env.used.has(s.text) &&
      !STATEMENT_FORMS.some((f) => env.used.has(formUseKey(f, s.text))) &&
      plainStatement(s, stories),
  );
}

/** A label and a dash before an instruction ("Open flame—Tie back all loose hair …"): a lab's safety note. */
const LABELLED = /^[\p{L}’' -]{2,30}[—–]\s?\p{Lu}/u;

/** A sentence that reads as a plain statement of the subject on its own (see `statements`). */
function plainStatement(s: ISentence, stories: ReadonlySet<string>): boolean {
  // "The higher pressure... regions": a sentence with an ellipsis was cut or garbled at ingestion.
  if (!s.standalone || s.sideBox || LABELLED.test(s.text) || /\.\.\.|…/.test(s.text)) return false;
  if (stories.has(`${s.chunkKey}|${s.heading}`) || WORKED.test(s.heading)) return false;
  const words = s.text.split(/\s+/).length;
  return (
    words >= 7 &&
    !/\b(?:fig|figures?|tables?|we|our|us|you|this way)\b|\b(?:figure|discuss)/i.test(s.text) &&
    !OPENER.test(s.text) &&
    !MATH.test(s.text) &&
    words <= 32 &&
    !LEANS_ON_CONTEXT.test(s.text) &&
    !ABOUT_NAMES.test(s.text) &&
    !/\b(?:not|no|never)\b/i.test(s.text) &&
    !/\?|!/.test(s.text) &&
    !HEDGED_OR_PERSONAL.test(s.text) &&
    !imperative(s.text) &&
    !ON_SCREEN.test(s.text) &&
    selfContained(s.text)
  );
}

const byRank = (env: IFormEnv, items: readonly ISentence[]) =>
  [...items].sort(
    (a, b) =>
      (env.kb.rank.get(a.chunkKey) ?? 99) - (env.kb.rank.get(b.chunkKey) ?? 99) || a.position - b.position,
  );

const SUMMARY = /\b(?:summary|introduction|review|overview|key terms)\b/i;
const NOT_A_TOPIC = (heading: string) =>
  SUMMARY.test(heading) || FEATURE_BOX.test(heading.replace(/^#+\s*/, ""));

/** A worked example's or a box's heading ("Strategy", "Friction at an Angle: Sliding a Coin"), not a topic. */
const EXAMPLE_HEADING =
  /^(?:strategy|solution|discussion|example|problem|significance|check your|solving|calculating|finding|determining|using|what it takes)\b|\bcalculations?\b|:|—/i;
/** A worked example's own blocks: their sentences set up one problem, not the subject (round 8: "notes on strategy"). */
const WORKED = /^(?:#+\s*)?(?:strategy|solution|discussion|significance|problem|example)\b/i;

/** "Newton’s", "Ohm’s": a name keeps its capital in the stem (round 8: "newton’s first law"). */
const topicOfText = (heading: string) => {
  const names = new Set(heading.match(/\b\p{Lu}\p{Ll}+[’']s\b/gu) ?? []);
  return topicName(heading)
    .split(" ")
    .map((w) => [...names].find((n) => n.toLowerCase() === w) ?? w)
    .join(" ");
};

/** The block's heading, else its section (never "Section Summary", a worked example or a box). */
function topicOf(env: IFormEnv, s: ISentence): string {
  const heading = s.heading.replace(/^#+\s*/, "");
  if (heading && !NOT_A_TOPIC(heading) && !EXAMPLE_HEADING.test(heading)) return topicOfText(heading);
  return sectionTopic(env, s);
}

function sectionTopic(env: IFormEnv, s: ISentence): string {
  const path = (env.kb.byKey.get(s.chunkKey)?.sectionPath ?? "").split(" > ").slice(1);
  const named =
    path
      .filter(
        (p) => !NOT_A_TOPIC(p) && !EXAMPLE_HEADING.test(p.replace(/^(?:chapter\s+)?\d+(?:\.\d+)*:?\s*/i, "")),
      )
      .pop() ?? "";
  return topicOfText(named.replace(/^(?:chapter\s+)?\d+(?:\.\d+)*:?\s*/i, ""));
}

/**
 * The topic a stem names must cover its statements (round 8: "about prokaryotic termination
 * signals" over four statements on transcription, "about nuclear fusion" over fission): the block's
 * heading when every statement is from that block and at least two use its words, else the
 * section when every statement is from it, else none (the question is not made).
 */
function topicFor(env: IFormEnv, first: ISentence, all: readonly ISentence[]): string {
  const heading = topicOf(env, first);
  const words = stemSet(heading);
  const using = all.filter((o) => [...stemSet(o.text)].some((w) => words.has(w))).length;
  if (heading && all.every((o) => o.heading === first.heading && o.section === first.section) && using >= 2)
    return heading;
  if (!all.every((o) => o.section === first.section)) return "";
  return coveringTopic(env, first, all);
}

const NUMBERED = /^(?:chapter\s+)?\d+(?:\.\d+)*:?\s+/i;
const blockName = (heading: string) =>
  heading
    .replace(/^#+\s*/, "")
    .trim()
    .toLowerCase();

/**
 * The section topic a lead-in may name over `all`: a passage's path names the LAST heading it
 * holds, so a passage running from "Peroxisomes" to "The Central Vacuole" gave "statements about
 * the central vacuole" over peroxisomes (round 12 and 13 readers: "termination signals", "higher
 * processing"). The deepest heading of the path is named only when every statement sits in its
 * block; else the numbered section the passage belongs to ("eukaryotic cells"), which covers every
 * sentence of the passage; else, when the path has no numbered section, the deepest heading as
 * before (the question is never lost for want of a topic).
 */
function coveringTopic(env: IFormEnv, first: ISentence, all: readonly ISentence[]): string {
  const deepest = sectionTopic(env, first);
  const path = (env.kb.byKey.get(first.chunkKey)?.sectionPath ?? "").split(" > ").slice(1);
  const last = (path.at(-1) ?? "").replace(NUMBERED, "").trim().toLowerCase();
  if (!last || NUMBERED.test(path.at(-1) ?? "") || all.every((o) => blockName(o.heading) === last))
    return deepest;
  const numbered = path.filter((p) => NUMBERED.test(p) && !NOT_A_TOPIC(p.replace(NUMBERED, ""))).pop();
  return numbered ? topicOfText(numbered.replace(NUMBERED, "")) : deepest;
}

/**
 * A sweeping statement offered as true ("All mammals have teeth", "Blood primarily moves by …"):
 * an informed student can fairly call it wrong (round 8 readers: wrong_key), so it is not offered
 * as a true option or note. A reversed statement may still hold "always" (it is the wrong one).
 */
export const SWEEPING = /^(?:all|every|no)\b|\b(?:primarily|mainly)\b/i;

/** A true statement that states the fact a reversed one gets wrong gives the answer away (round 8). */
const givesAway = (truth: ISentence, wrong: ISwap) => {
  const said = stemSet(truth.text);
  const from = stemSet(wrong.from);
  if (![...from].some((w) => said.has(w))) return false;
  // …about the same thing: another content word in common besides the swapped one.
  return [...stemSet(wrong.sentence.text)].some((w) => !from.has(w) && said.has(w));
};

/**
 * A lead-in that names the word a reversal took out gives the error away: notes "on DNA
 * replication in prokaryotes" that say "well studied in eukaryotes", statements "about eukaryotic
 * cells" with "Every prokaryotic species …" (the reader needs only the lead-in, not the fact).
 */
export const leadInGivesAway = (topic: string, swap: Pick<ISwap, "from" | "to">) => {
  const said = stemSet(topic);
  // "Notes on elastic and inelastic collisions" names both words: nothing is given away.
  if ([...stemSet(swap.to)].some((w) => said.has(w))) return false;
  return [...stemSet(swap.from)].some((w) => said.has(w));
};

/**
 * Sentences of the same heading block, then of the same passage section, nearest first. Other
 * selected passages of the same numbered section were tried as neighbours in round 12: more
 * statement MCQs (Biology held-out 22 → 29 at their level), but the planner's dry run then placed
 * more Remember MCQs than distinct facts and a set lost its notes items (docs, round 12).
 */
function neighbours(env: IFormEnv, s: ISentence, pool: readonly ISentence[]): ISentence[] {
  const same = pool.filter((o) => o.text !== s.text && o.heading === s.heading && o.chunkKey === s.chunkKey);
  const section = pool.filter((o) => o.text !== s.text && o.section === s.section && !same.includes(o));
  return [
    ...same.sort((a, b) => Math.abs(a.position - s.position) - Math.abs(b.position - s.position)),
    ...byRank(env, section),
  ];
}

/** Reports the step a form gave up at (for `--why`), and gives up. */
const gaveUp = (env: IFormEnv, step: string): null => {
  env.trace?.(step);
  return null;
};

/**
 * Statements that do not restate one another or the ones already `taken` (round 12 reading: "RNA
 * is transcribed, but must be processed …" beside "Once RNA is transcribed, it must be processed
 * …"): two options saying the same thing are one option twice.
 */
function distinct(items: readonly ISentence[], taken: readonly ISentence[]): ISentence[] {
  const out: ISentence[] = [];
  const seen = taken.map((t) => stemSet(t.text));
  for (const s of items) {
    const stems = stemSet(s.text);
    if (seen.some((o) => coverage(stems, o) >= 0.6 || coverage(o, stems) >= 0.6)) continue;
    seen.push(stems);
    out.push(s);
  }
  return out;
}

/** Options of comparable length, so the odd one out is not the longest or the shortest. */
const similarLength = (a: string, b: string) => {
  const r = a.length / b.length;
  return r >= 0.55 && r <= 1.8;
};

const lowerFirst = (t: string) => (/^\p{Lu}\p{Ll}/u.test(t) ? t.charAt(0).toLowerCase() + t.slice(1) : t);
const sentenceOf = (t: string) => `${capital(stripEnd(t))}.`;

/**
 * A reversed statement a reader can tell from the original by its words: the new word is a
 * content word the original lacks, and it changes at least a tenth of the statement's content
 * (a one-word flip in a long sentence, or a flip of "more"/"less", reads as the text itself).
 */
function tellsApart(r: ISwap): boolean {
  const flipped = stemSet(r.text);
  const original = stemSet(r.sentence.text);
  const added = [...flipped].filter((s) => !original.has(s));
  return added.length > 0 && coverage(flipped, original) < 0.9;
}

const namesCache = new WeakMap<object, string[]>();
/**
 * A reversal inside a named term of the chapter ("total internal reflection" → "total external
 * reflection"): the new phrase names nothing, and a student rules the option out by the name alone.
 */
function insideName(env: IFormEnv, r: ISwap): boolean {
  let names = namesCache.get(env.kb);
  if (!names) {
    names = [...env.kb.concepts.map((c) => c.name), ...env.kb.scopeTerms.map((t) => t.term)]
      .map((n) => n.toLowerCase())
      .filter((n) => n.includes(" "));
    namesCache.set(env.kb, names);
  }
  const text = r.sentence.text.toLowerCase();
  const from = new RegExp(`(?:^|\\s)${r.from}(?:\\s|$)`);
  return names.some((n) => from.test(n) && text.includes(n));
}

function correctStatementMcq(env: IFormEnv, key: ISentence, pool: readonly ISentence[]): TQuestion | null {
  const usable = (r: ISwap | null): r is ISwap =>
    r !== null && similarLength(r.text, key.text) && tellsApart(r) && !insideName(env, r);
  // The selection's own reversals only. Wave 13 tried making up three with reversals of the
  // unselected rest of the chapter section; blind readers rejected 3 of 3 such items (absurd
  // options, a reversal that stays true, options off the stem's topic), so it was removed.
  const reversible = neighbours(env, key, pool).map(reverse).filter(usable);
  const kept = new Set(
    distinct(
      reversible.map((r) => r.sentence),
      [key],
    ),
  );
  const reversed = reversible.filter((r) => kept.has(r.sentence)).slice(0, 3);
  if (reversed.length < 3) return gaveUp(env, "correct: < 3 reversible neighbours in the section");
  const topic = topicFor(env, key, [key, ...reversed.map((r) => r.sentence)]);
  if (!topic) return gaveUp(env, "correct: statements from more than one section");
  if (reversed.some((r) => leadInGivesAway(topic, r)))
    return gaveUp(env, "correct: the lead-in names a reversed word");
  return mcq(env, {
    prompt: `Which of the following statements about ${topic} is correct?`,
    key: { text: sentenceOf(key.text) },
    distractors: reversed.map((r) => ({
      text: r.text,
      rationale: `Takes ${r.to} for ${r.from}: the text states that ${clip(lowerFirst(stripEnd(r.sentence.text)), 150)}.`,
    })),
    explanation: `The text states: “${clip(stripEnd(key.text), 220)}.” Each other option reverses one word of a statement the text makes.`,
    sources: [key, ...reversed.map((r) => r.sentence)].map((s) => ({ chunkKey: s.chunkKey, quote: s.text })),
  });
}

/**
 * One reversed statement among three true ones ("… is NOT correct?"). Only for reversals of a
 * quality or a direction: a swap of two names (reflection/refraction, electron/proton) can leave
 * the statement true, which readers rejected.
 */
function incorrectStatementMcq(env: IFormEnv, wrong: ISwap, pool: readonly ISentence[]): TQuestion | null {
  // True statements that cannot be reversed first: the reversible ones are kept for other questions.
  const near = neighbours(env, wrong.sentence, pool).filter(
    (s) => similarLength(s.text, wrong.text) && !givesAway(s, wrong) && !SWEEPING.test(s.text),
  );
  const truths = distinct(
    [...near.filter((s) => reverse(s) === null), ...near.filter((s) => reverse(s) !== null)],
    [wrong.sentence],
  ).slice(0, 3);
  if (truths.length < 3) return gaveUp(env, "NOT-correct: < 3 true neighbours of similar length");
  const topic = topicFor(env, wrong.sentence, [wrong.sentence, ...truths]);
  if (!topic) return gaveUp(env, "NOT-correct: statements from more than one section");
  if (leadInGivesAway(topic, wrong)) return gaveUp(env, "NOT-correct: the lead-in names the reversed word");
  return mcq(env, {
    prompt: `Which of the following statements about ${topic} is NOT correct?`,
    key: { text: wrong.text },
    distractors: truths.map((t) => ({
      text: sentenceOf(t.text),
      rationale: `A true statement the text makes (${clip(lowerFirst(stripEnd(t.text)), 120)}); choosing it means doubting a stated fact and missing the reversed one.`,
    })),
    explanation: `The text states the opposite: “${clip(stripEnd(wrong.sentence.text), 220)}.” — it is “${wrong.from}”, not “${wrong.to}”. The other three statements are made by the text as given.`,
    sources: [wrong.sentence, ...truths].map((s) => ({ chunkKey: s.chunkKey, quote: s.text })),
  });
}

/**
 * Remember: pick the statement the text makes among reversed ones, else the one reversed statement
 * among three true ones. Reversals that stay true (refraction/reflection, a proton's charge) are
 * no longer made.
 */
export const statementMcq: IForm = {
  id: "statement-mcq",
  fits: (type, level) => type === "mcq" && level === "Remember",
  // Each question needs a true statement and three reversible ones from the same section.
  // Each question needs one reversible statement (not a swap of two names) and true ones beside it.
  available: (kb) =>
    kb.sentences.filter((s) => s.standalone && !s.sideBox && reverse(s) && !NAME_WORD.test(reverse(s)!.from))
      .length,
  *build(env) {
    const pool = statements(env);
    if (!pool.some((s) => reverse(s))) env.trace?.("no usable statement with a word to reverse");
    const seen = new Set<string>();
    let n = 0;
    for (const s of byRank(env, pool)) {
      if (n >= MAX_CANDIDATES) return;
      const q = correctStatementMcq(env, s, pool);
      const id = q?.type === "mcq" ? q.options.join("|") : "";
      if (q && !seen.has(id)) {
        seen.add(id);
        n++;
        yield q;
      }
    }
    for (const s of byRank(env, pool)) {
      const r = reverse(s);
      if (!r || NAME_WORD.test(r.from)) continue;
      const q = n < MAX_CANDIDATES ? incorrectStatementMcq(env, r, pool) : null;
      if (q) {
        n++;
        yield q;
      }
    }
  },
};

/**
 * Notes to check for `marks`: two marks per reversed statement (say it is wrong, correct it) and,
 * when a mark is left, one for saying the rest are right (5 = 2 errors + 1, 4 = 2 errors,
 * 3 = 1 error + 1, 2 = 1 error). "Correct as written" earns at most one mark, so guessing that
 * every statement is right earns little; at least one true statement is always among the notes.
 */
function layouts(marks: number): { notes: number; errors: number; restMark: boolean }[] {
  const out: { notes: number; errors: number; restMark: boolean }[] = [];
  for (const errors of [2, 1]) {
    const rest = marks - 2 * errors;
    if (rest !== 0 && rest !== 1) continue;
    out.push({ notes: errors + (errors === 2 ? 1 : 2), errors, restMark: rest === 1 });
  }
  return out;
}

interface INote {
  s: ISentence;
  text: string;
  error: ISwap | null;
}

function notesQuestion(
  env: IFormEnv,
  topic: string,
  notes: readonly INote[],
  restMark: boolean,
): TQuestion | null {
  const numbered = notes.map((n, i) => `(${i + 1}) ${n.text}`).join(" ");
  const right = notes.flatMap((n, i) => (n.error ? [] : [i + 1]));
  const points = [
    ...notes.flatMap((n, i) =>
      n.error
        ? [
            { point: `Identifies statement ${i + 1} as wrong: it says “${n.error.to}”` },
            // Round 12 readers: another correction that makes the statement true earns the mark too.
            {
              point: `Corrects statement ${i + 1}: ${clip(stripEnd(n.s.text), 150)} (or another correction that makes it true)`,
            },
          ]
        : [],
    ),
    ...(restMark
      ? [
          {
            point: `States that ${right.length === 1 ? `statement ${right[0]} is` : `statements ${right.join(" and ")} are`} correct`,
          },
        ]
      : []),
  ];
  const errors = notes.flatMap((n) => (n.error ? [n.error] : []));
  return written(env, {
    prompt: `A student writes these notes on ${topic}: “${numbered}” Check the notes: say whether each statement is correct, and correct any statement that is wrong.`,
    answer: notes
      .map((n, i) =>
        n.error
          ? `Statement ${i + 1} is wrong: it should say “${n.error.from}”, not “${n.error.to}”. ${sentenceOf(n.s.text)}`
          : `Statement ${i + 1} is correct.`,
      )
      .join(" "),
    points,
    // The corrections, not words of the notes: a marker crediting those would credit a copy.
    keywords: [...new Set(errors.map((e) => e.from.toLowerCase()))],
    sources: notes.map((n) => ({ chunkKey: n.s.chunkKey, quote: n.s.text })),
  });
}

/**
 * Remember, written: a student's notes on a topic, some statements reversed, to check: say which
 * are wrong and correct them. Spotting a flipped word is recall of the stated fact, not judgement
 * (three independent readers put all 60 such items labelled Evaluate at Remember or Understand),
 * so it is labelled Remember and stands in for higher levels only as a labelled substitute. The
 * number of errors is not given away.
 */
export const spotTheError: IForm = {
  id: "spot-the-error",
  fits: (type, level) => type !== "mcq" && level === "Remember",
  available: (kb) => kb.sentences.filter((s) => s.standalone && !s.sideBox && reverse(s)).length,
  *build(env) {
    const pool = statements(env);
    let made = 0;
    for (const s of byRank(env, pool)) {
      if (made >= MAX_CANDIDATES) return;
      const first = reverse(s);
      const topic = first ? topicOf(env, s) : "";
      if (!first || !topic) continue;
      const all = neighbours(env, s, pool);
      for (const { notes: n, errors: e, restMark } of layouts(env.slot.marks)) {
        const second = e > 1 ? all.map(reverse).find((r): r is ISwap => r !== null) : undefined;
        if (e > 1 && !second) continue;
        const errors = [first, ...(second ? [second] : [])];
        const others = all
          .slice(0, 8)
          .filter(
            (o) =>
              !SWEEPING.test(o.text) && !errors.some((x) => x.sentence.text === o.text || givesAway(o, x)),
          );
        // True statements that cannot be reversed first: the reversible ones are kept for other items.
        const correct = distinct(
          [...others.filter((o) => reverse(o) === null), ...others.filter((o) => reverse(o) !== null)],
          errors.map((x) => x.sentence),
        ).slice(0, n - e);
        if (correct.length < n - e) continue;
        // The notes in the order the text gives them.
        const notes: INote[] = [
          ...errors.map((x) => ({ s: x.sentence, text: x.text, error: x })),
          ...correct.map((c) => ({ s: c, text: sentenceOf(c.text), error: null })),
        ].sort((a, b) =>
          a.s.chunkKey === b.s.chunkKey
            ? a.s.position - b.s.position
            : (env.kb.rank.get(a.s.chunkKey) ?? 99) - (env.kb.rank.get(b.s.chunkKey) ?? 99),
        );
        const noteTopic = topicFor(
          env,
          s,
          notes.map((x) => x.s),
        );
        if (!noteTopic) {
          env.trace?.("notes: statements from more than one section");
          continue;
        }
        if (errors.some((x) => leadInGivesAway(noteTopic, x))) {
          env.trace?.("notes: the lead-in names a reversed word");
          continue;
        }
        const q = notesQuestion(env, noteTopic, notes, restMark);
        if (q) {
          made++;
          yield q;
        }
        break;
      }
    }
  },
};
