import { isStopword, stem, words } from "@/lib/text/tokenize";
import { isKnownWord, senses, synset, usageCount } from "@/lib/text/wordnet";
import type { IEmbedder } from "@/types/chunk.types";

/**
 * paperwise-offline-v1: a deterministic 1536-d text embedding with no model weights.
 *
 * It is signed feature hashing (Weinberger et al., 2009) of a weighted bag of features:
 *   - stemmed content unigrams, sublinear tf (1 + ln tf);
 *   - stemmed adjacent content-word bigrams (word order and compounds: "cell wall", "light reaction");
 *   - WordNet expansion of every content word, at lower weight, so a paraphrase that uses other
 *     words lands nearby: the synset ids of its first senses (shared by synonyms), the ids of
 *     their direct hypernyms (shared with the broader word), synonym lemmas, and the content
 *     words of its first gloss clause (a definition matches the term it defines);
 *   - a 6-letter prefix of words WordNet does not know (technical terms: "cnidarian"/"Cnidaria").
 * Every term is weighted by a specificity prior, since there is no corpus IDF at query time:
 * words frequent in general English (SemCor counts from WordNet) weigh less, numbers much less.
 * Each feature is hashed to two (index, sign) probes; the sign makes collisions cancel in
 * expectation, and two probes turn rare full collisions into smaller partial ones.
 *
 * The weights were tuned on the open eval queries with general features only (no eval-derived
 * lists); the measurements are in the README ("Retrieval tuning notes").
 * Changing any constant below changes the vectors: bump the model id.
 */
export const OFFLINE_MODEL_ID = "paperwise-offline-v1";
export const OFFLINE_DIMENSIONS = 1536;

const WEIGHTS = {
  bigram: 0.5,
  /** Synset id of sense 1; later senses decay geometrically. */
  sense: 0.7,
  senseDecay: 0.6,
  maxSenses: 2,
  hypernym: 0.4,
  synonymLemma: 0.3,
  gloss: 0.3,
  unknownPrefix: 0.4,
  prefixLength: 6,
  number: 0.3,
  /** Prior = 1 / (1 + usagePrior · ln(1 + SemCor count)); stronger values hurt recall. */
  usagePrior: 0.2,
  probes: 2,
} as const;

const MAX_CACHED_WORDS = 200_000;
const EMPTY_FEATURE = "∅";

/** FNV-1a over UTF-16 code units, then the murmur3 finaliser (FNV's low bits mix poorly). */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix(h);
}

function mix(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function pairHash(a: number, b: number): number {
  return mix(Math.imul(a, 0x9e3779b1) ^ b ^ 0x5bd1e995);
}

/** How much a word says about a topic, in (0, 1]. */
function termPrior(word: string): number {
  if (/^\d+$/.test(word)) return WEIGHTS.number;
  return 1 / (1 + WEIGHTS.usagePrior * Math.log1p(usageCount(word)));
}

interface IWordFeatures {
  stem: string;
  unigram: number;
  prior: number;
  /** Expansion feature hashes and their weights (before the prior). */
  keys: number[];
  weights: number[];
}

const wordCache = new Map<string, IWordFeatures>();

function expansionFeatures(word: string): Map<number, number> {
  const out = new Map<number, number>();
  const add = (feature: string, weight: number) => {
    const h = hashString(feature);
    out.set(h, Math.max(out.get(h) ?? 0, weight));
  };
  const known = isKnownWord(word);
  if (!known && word.length > WEIGHTS.prefixLength) {
    add(`p:${word.slice(0, WEIGHTS.prefixLength)}`, WEIGHTS.unknownPrefix);
  }
  if (!known) return out;
  senses(word, { maxSenses: WEIGHTS.maxSenses }).forEach((sense, rank) => {
    const decay = WEIGHTS.senseDecay ** rank;
    const set = synset(sense);
    add(`s:${sense.pos}${sense.offset}`, WEIGHTS.sense * decay);
    for (const parent of set.hypernyms) add(`s:${parent.pos}${parent.offset}`, WEIGHTS.hypernym * decay);
    for (const lemma of set.lemmas) {
      const lower = lemma.toLowerCase();
      // Multi-word lemmas ("railway_car") are skipped: they would need phrase features.
      if (lower !== word && !lower.includes("_")) add(`u:${stem(lower)}`, WEIGHTS.synonymLemma * decay);
    }
    if (rank === 0) {
      // The first clause is the definition proper; later clauses are usage examples.
      const definition = set.gloss.split(";")[0] ?? "";
      for (const w of words(definition)) {
        if (w.length > 2 && !isStopword(w)) add(`u:${stem(w)}`, WEIGHTS.gloss);
      }
    }
  });
  return out;
}

function wordFeatures(word: string): IWordFeatures {
  let features = wordCache.get(word);
  if (features === undefined) {
    const stemmed = stem(word);
    const expansion = expansionFeatures(word);
    features = {
      stem: stemmed,
      unigram: hashString(`u:${stemmed}`),
      prior: termPrior(word),
      keys: [...expansion.keys()],
      weights: [...expansion.values()],
    };
    if (wordCache.size >= MAX_CACHED_WORDS) wordCache.clear();
    wordCache.set(word, features);
  }
  return features;
}

/** Per feature: occurrence count and summed weight; the value is mean weight × (1 + ln count). */
class FeatureBag {
  readonly slots = new Map<number, number>();
  readonly hashes: number[] = [];
  readonly counts: number[] = [];
  readonly masses: number[] = [];

  add(hash: number, weight: number): void {
    const slot = this.slots.get(hash);
    if (slot === undefined) {
      this.slots.set(hash, this.hashes.length);
      this.hashes.push(hash);
      this.counts.push(1);
      this.masses.push(weight);
    } else {
      this.counts[slot]! += 1;
      this.masses[slot]! += weight;
    }
  }
}

function bagOfFeatures(text: string): FeatureBag {
  const bag = new FeatureBag();
  const tokens = words(text);
  let content = tokens.filter((w) => w.length > 1 && !isStopword(w));
  // A text of only function words ("to be or not") still deserves a non-empty vector.
  if (content.length === 0) content = tokens;
  let previous: IWordFeatures | null = null;
  for (const word of content) {
    const f = wordFeatures(word);
    bag.add(f.unigram, f.prior);
    for (let i = 0; i < f.keys.length; i++) bag.add(f.keys[i]!, f.weights[i]! * f.prior);
    if (previous !== null && previous.stem !== f.stem) {
      bag.add(pairHash(previous.unigram, f.unigram), WEIGHTS.bigram * Math.sqrt(previous.prior * f.prior));
    }
    previous = f;
  }
  if (bag.hashes.length === 0) bag.add(hashString(EMPTY_FEATURE), 1);
  return bag;
}

function project(bag: FeatureBag): Float32Array {
  const vector = new Float32Array(OFFLINE_DIMENSIONS);
  const probeScale = 1 / Math.sqrt(WEIGHTS.probes);
  for (let i = 0; i < bag.hashes.length; i++) {
    const count = bag.counts[i]!;
    const value = (bag.masses[i]! / count) * (1 + Math.log(count)) * probeScale;
    let h = bag.hashes[i]!;
    for (let p = 0; p < WEIGHTS.probes; p++) {
      const index = (h >>> 1) % OFFLINE_DIMENSIONS;
      vector[index]! += h & 1 ? value : -value;
      h = mix(h + 0x6d2b79f5);
    }
  }
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  if (norm === 0) {
    // Only when every feature's probes cancel exactly: still return a unit vector, never NaN.
    vector[hashString(EMPTY_FEATURE) % OFFLINE_DIMENSIONS] = 1;
    return vector;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i]! *= inv;
  return vector;
}

/** Synchronous embedding of one text: L2-normalised, identical across processes and runs. */
export function embedOffline(text: string): Float32Array {
  return project(bagOfFeatures(text));
}

/** Yield to the event loop between batches so a big ingestion does not stall other requests. */
const BATCH = 64;

export function createOfflineEmbedder(): IEmbedder {
  return {
    modelId: OFFLINE_MODEL_ID,
    dimensions: OFFLINE_DIMENSIONS,
    async embedDocuments(texts: string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i++) {
        if (i > 0 && i % BATCH === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        out.push(embedOffline(texts[i]!));
      }
      return out;
    },
    async embedQuery(text: string): Promise<Float32Array> {
      return embedOffline(text);
    },
  };
}
