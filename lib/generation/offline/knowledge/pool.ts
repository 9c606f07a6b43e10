import { contentWords, stem } from "@/lib/text/tokenize";
import { hypernyms, senses } from "@/lib/text/wordnet";
import type { IContextChunk } from "@/types/generation.types";
import { extractTerms, genusOf, type ITerm, sameConcept, singular, termKey } from "./lexicon";
import { chunkKey, collectSentences } from "./sentences";

/**
 * The subject's wider option pool: terms that OTHER documents of the same board, class and subject
 * define (other chapters of the book), offered as wrong options of a Remember MCQ only when the
 * chapter has too few of the key's kind, and only when the text or WordNet says they are of that
 * kind. A wider pool without a kind test put "hypothesis" against ecosystem models and "lipids"
 * against lysosomes (round 10, measured and not shipped), so every candidate has to pass `sameKind`.
 */

/** Words too general to make two terms of one kind ("a part of …", "a process that …", "a cell …"). */
export const LOOSE = new Set(
  `cell cells organism organisms body thing way part type kind form process change result group number amount one
  object point structure substance material matter property feature quantity measure factor unit system area region
  member element component term name method step stage phase event condition state basis cause site source pattern
  effort opposite means example portion series level ability inability capacity tendency molecule compound
  interaction response foundation increase decrease act action activity`.split(/\s+/),
);

/** Head nouns that name a measure of anything ("glomerular filtration rate" / "failure rate"). */
const LOOSE_HEAD = new Set(["rate", "ratio", "level", "value", "time", "size", "point"]);

/**
 * The kind a definition gives its term, looking through a counting genus: "a type of organelle
 * that …" and "an organelle …" both give "organelle"; "" when the text names no useful kind.
 */
export function kindOf(t: Pick<ITerm, "definition" | "genus">): string {
  const hit = kinds.get(t);
  if (hit !== undefined) return hit;
  const through =
    /^(?:an?|the|one)\s+(?:(?:specific|special|particular|common|major)\s+)?(?:type|kind|form|class|sort|variety|category)\s+of\s+(.+)$/i.exec(
      t.definition,
    );
  const genus = through ? genusOf(`a ${through[1]!}`) : t.genus;
  const kind = genus && !LOOSE.has(genus) && genus.length > 2 ? genus : "";
  kinds.set(t, kind);
  return kind;
}
const kinds = new WeakMap<object, string>();

/** Direct WordNet hypernyms of a name's first noun sense (the name itself must be in WordNet). */
function parents(name: string): Set<string> {
  const key = name.toLowerCase();
  const hit = parentMemo.get(key);
  if (hit) return hit;
  const found = readParents(key);
  if (parentMemo.size > 20_000) parentMemo.clear();
  parentMemo.set(key, found);
  return found;
}
const parentMemo = new Map<string, Set<string>>();

function readParents(key: string): Set<string> {
  const first = senses(key, { maxSenses: 1 })[0];
  if (first?.pos !== "n") return new Set();
  return new Set(hypernyms(key, { maxSenses: 1 }).map((p) => singular(p.toLowerCase())));
}

/** A term's name without a trailing symbol ("centripetal force Fc" → "centripetal force"). */
const bare = (term: string) =>
  term.replace(/(?:\s+[^\s]*[\p{Lu}\p{Script=Greek}Δ][^\s]*)+$/u, "").trim() || term;

export interface IKindKey {
  name: string;
  /** The kind the passage's definition gives the key ("" when it gives none). */
  genus: string;
  head: string;
  definition?: string;
}

/**
 * Why `o` is of the key's kind, or null: the same genus in both definitions ("an organelle …" /
 * "a type of organelle …"); the same head noun in two-word names ("kinetic energy" / "potential
 * energy"); or WordNet making `o` a direct kind of the key's textual genus (antibodies, for
 * "hemoglobin is a protein …"). One shared word of the definitions, one list, or two names under
 * one WordNet parent is not enough here: these terms come from other chapters, where nothing else
 * ties them to the key. (Measured on Biology offset 0: WordNet siblings alone brought labor ↔
 * hydrozoa, both "classes" in WordNet's first senses, and ossification ↔ the citric acid cycle.)
 */
export function sameKind(key: IKindKey, o: ITerm): "genus" | "head" | "wordnet-genus" | null {
  const keyGenus = key.genus && !LOOSE.has(key.genus) ? key.genus : "";
  const oKind = kindOf(o);
  if (keyGenus && oKind === keyGenus) return "genus";
  const oName = bare(o.term);
  // Two genera the definitions state, and different ("the increase in …" / "a population in which
  // …"): a shared head noun ("appositional" / "zero population" growth) does not make them one kind.
  const keyRaw = key.definition ? genusOf(key.definition) : key.genus;
  const clash = !!keyRaw && !!o.genus && keyRaw !== o.genus;
  if (
    !clash &&
    key.head &&
    key.head === o.head &&
    key.head.length > 2 &&
    !LOOSE.has(key.head) &&
    !LOOSE_HEAD.has(key.head) &&
    (key.name.includes(" ") || oName.includes(" "))
  )
    return "head";
  // A different genus stated in the text outweighs WordNet, even a loose one: radiation is energy
  // in WordNet, but "the only method of heat transfer …" is no option for kinetic energy.
  if (keyGenus && o.genus && o.genus !== keyGenus) return null;
  const oParents = parents(oName);
  if (keyGenus && oParents.has(keyGenus)) return "wordnet-genus";
  return null;
}

const stemMemo = new Map<string, Set<string>>();
/** Content stems of a text, memoised: every key of a set is compared with the whole pool. */
function stems(s: string): Set<string> {
  let hit = stemMemo.get(s);
  if (!hit) {
    hit = new Set(contentWords(s).map(stem));
    if (stemMemo.size > 50_000) stemMemo.clear();
    stemMemo.set(s, hit);
  }
  return hit;
}
function share(a: string, b: string): number {
  const sa = stems(a);
  const sb = stems(b);
  if (sa.size === 0) return 0;
  let n = 0;
  for (const s of sa) if (sb.has(s)) n++;
  return n / sa.size;
}
const namesAll = (text: string, term: string) => {
  const ts = stems(term);
  const xs = stems(text);
  return ts.size > 0 && [...ts].every((s) => xs.has(s));
};

/**
 * Pool terms that may stand as wrong options against `key`, best first, with the reason each is
 * of the key's kind. Never the key or another name of it, a term whose definition names the key
 * (or the key's definition names it), a definition sharing half its words with the key's or
 * with the question (it could be right too), or a term the selection itself names in the stem.
 */
export function poolOptions(
  pool: readonly ITerm[],
  key: IKindKey & { aliases?: readonly string[]; plural?: boolean },
  stemText: string,
  opts: { samePlurality?: boolean; exclude?: ReadonlySet<string>; trace?: (step: string) => void } = {},
): { term: ITerm; why: NonNullable<ReturnType<typeof sameKind>> }[] {
  const keyKey = termKey(bare(key.name));
  const aliases = (key.aliases ?? []).map((a) => termKey(a));
  const out: { term: ITerm; why: NonNullable<ReturnType<typeof sameKind>>; rank: number }[] = [];
  const seen = new Set<string>(opts.exclude ?? []);
  let wrongKind = 0;
  for (const o of pool) {
    const k = termKey(bare(o.term));
    if (!k || k === keyKey || seen.has(k) || aliases.includes(k) || sameConcept(o.term, key.name)) continue;
    if (o.aliases.some((a) => termKey(a) === keyKey)) continue;
    if (opts.samePlurality && key.plural !== undefined && o.plural !== key.plural) continue;
    const why = sameKind(key, o);
    if (!why) {
      wrongKind++;
      continue;
    }
    if (namesAll(o.definition, key.name) || (key.definition && namesAll(key.definition, o.term))) continue;
    if (namesAll(stemText, o.term)) continue;
    if (
      key.definition &&
      (share(o.definition, key.definition) >= 0.5 || share(key.definition, o.definition) >= 0.5)
    )
      continue;
    if (share(o.definition, stemText) >= 0.5) continue;
    seen.add(k);
    out.push({
      term: o,
      why,
      rank: why === "genus" ? 0 : why === "head" ? 1 : why === "wordnet-genus" ? 2 : 3,
    });
  }
  if (wrongKind > 0 && out.length < 3) opts.trace?.("pool: other chapters' terms of another kind refused");
  return out.sort((a, b) => a.rank - b.rank).map(({ term, why }) => ({ term, why }));
}

/** Sentences that may define a term: a cheap test before the definitions are read. */
export const DEFINING =
  /\b(?:is|are)\s+(?:called|known as|termed|defined as|referred to as|named|an?\s|the\s)|\brefers? to\b|\bmeans\b|\bis the term for\b/i;

/**
 * The pool's compact passages: for each chunk of the other documents, only the sentences that
 * define a term, so the pool crosses threads and is re-read cheaply. Marked `optionsOnly`.
 */
export function compactPool(chunks: readonly IContextChunk[]): IContextChunk[] {
  const sentences = collectSentences(chunks.filter((c) => DEFINING.test(c.content)));
  const defining = new Set(extractTerms(sentences).map((t) => t.sentence));
  const byChunk = new Map<string, string[]>();
  for (const s of sentences)
    if (defining.has(s.text)) byChunk.set(s.chunkKey, [...(byChunk.get(s.chunkKey) ?? []), s.text]);
  const out: IContextChunk[] = [];
  for (const c of chunks) {
    const kept = byChunk.get(chunkKey(c));
    if (!kept) continue;
    const { zoneSpans: _spans, ...rest } = c;
    out.push({ ...rest, content: kept.join(" "), zone: "definition", optionsOnly: true });
  }
  return out;
}

/** Terms per pool document, by its compact passages: each set of a subject reads only what is new. */
const docCache = new Map<string, ITerm[]>();
const DOC_CACHE_MAX = 400;

/** The pool's terms, read once per document (sets of one subject share them). */
export function poolTerms(pool: readonly IContextChunk[]): ITerm[] {
  if (pool.length === 0) return [];
  const byDoc = new Map<string, IContextChunk[]>();
  for (const c of pool) byDoc.set(c.documentId, [...(byDoc.get(c.documentId) ?? []), c]);
  const out: ITerm[] = [];
  const seen = new Set<string>();
  for (const [doc, chunks] of byDoc) {
    const id = `${doc}|${chunks.length}|${chunks[0]!.chunkIndex}|${chunks.at(-1)!.chunkIndex}|${chunks.reduce((n, c) => n + c.content.length, 0)}`;
    let terms = docCache.get(id);
    if (!terms) {
      terms = extractTerms(collectSentences(chunks));
      if (docCache.size >= DOC_CACHE_MAX) docCache.delete(docCache.keys().next().value as string);
      docCache.set(id, terms);
    }
    for (const t of terms) {
      const k = t.term.toLowerCase();
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(t);
    }
  }
  return out;
}
