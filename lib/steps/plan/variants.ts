import { feedbackTerms } from "@/lib/steps/enhance/offline";
import { contentWords, stem, terms } from "@/lib/text/tokenize";
import type { IQueryClassification } from "@/types/retrieval.types";

/**
 * Offline query variants: other phrasings of one query, each searched as its own probe and fused
 * with the query's own results (multi-query retrieval). Every function is pure and deterministic:
 * what they derive from is the query itself (its MCQ options, the parts of a comparison or a
 * multi-part stem) or the passages a first search found (pseudo-relevance feedback, a
 * hypothetical-passage stand-in). Each returns null when it has nothing new to offer.
 */

// ----------------------------------------------------------------------------- from the query alone

/** Option labels: "A)", "(b)", "c.", "iv)" at a line start or after a space. */
const OPTION_LABEL_RE = /(?:^|\s)(?:\(([a-eA-E]|i{1,3}|iv|v)\)|([a-eA-E]|i{1,3}|iv|v)[.)])\s+/g;

export interface IMcqParts {
  stem: string;
  options: string[];
}

/**
 * Splits a pasted MCQ into its stem and options ("… ? A) x B) y C) z D) w"). Labels must run in
 * order from a/A (or i) and there must be at least three of them, so "(a) and (b) are true" in a
 * stem is not read as options. Returns null for anything else.
 */
export function splitMcqOptions(query: string): IMcqParts | null {
  const labels: { at: number; end: number; label: string }[] = [];
  for (const m of query.matchAll(OPTION_LABEL_RE)) {
    const label = (m[1] ?? m[2] ?? "").toLowerCase();
    labels.push({
      at: m.index + (m[0].startsWith(" ") || m[0].startsWith("\n") ? 1 : 0),
      end: m.index + m[0].length,
      label,
    });
  }
  const letters = "abcde";
  const romans = ["i", "ii", "iii", "iv", "v"];
  for (const order of [letters.split(""), romans]) {
    const start = labels.findIndex((l) => l.label === order[0]);
    if (start < 0) continue;
    const run = [labels[start]!];
    for (const l of labels.slice(start + 1)) if (l.label === order[run.length]) run.push(l);
    if (run.length < 3) continue;
    const stem = query.slice(0, run[0]!.at).trim();
    const options = run
      .map((l, i) => query.slice(l.end, run[i + 1]?.at ?? query.length).trim())
      .map((o) => o.replace(/[;,]$/, "").trim());
    if (contentWords(stem).length === 0 || options.some((o) => o.length === 0)) continue;
    return { stem, options };
  }
  return null;
}

/** Numbered parts of a multi-part exam question: "(a) … (b) …", "(i) … (ii) …", "1. … 2. …". */
const PART_RE = /(?:^|\s)(?:\(([a-d]|i{1,3}|iv)\)|([a-d]|i{1,3}|iv)\)|(\d)[.)])\s+/g;

/**
 * Sub-queries of a query that asks several things at once:
 * - a comparison: each side on its own ("mitosis", "meiosis"), the comparison itself stays the main probe;
 * - a multi-part stem: the shared lead-in with each part ("Photosynthesis: (a) … (b) …");
 * - several questions in one ("What is X? How does it affect Y?").
 */
export function decompose(query: string, classification: IQueryClassification): string[] {
  if (classification.type === "compare") {
    const sides = classification.searchText
      .split(/\s+(?:and|or|with|from|vs\.?|versus)\s+|,\s*/i)
      .map((s) => s.trim())
      .filter((s) => contentWords(s).length > 0);
    return sides.length >= 2 && sides.length <= 4 ? sides : [];
  }
  const parts: { at: number; end: number }[] = [];
  for (const m of query.matchAll(PART_RE)) parts.push({ at: m.index, end: m.index + m[0].length });
  if (parts.length >= 2) {
    const lead = query.slice(0, parts[0]!.at).trim();
    const subs = parts
      .map((p, i) => query.slice(p.end, parts[i + 1]?.at ?? query.length).trim())
      .filter((s) => contentWords(s).length >= 2)
      .map((s) => (lead ? `${topicOf(lead)} ${s}` : s).trim());
    if (subs.length >= 2) return subs.slice(0, 4);
  }
  const questions = query
    .split(/(?<=\?)\s+/)
    .map((s) => s.trim())
    .filter((s) => s.endsWith("?") && contentWords(s).length >= 1);
  return questions.length >= 2 ? questions.slice(0, 4) : [];
}

/** The content words of a lead-in, to carry its topic into each part. */
function topicOf(lead: string): string {
  return contentWords(lead).slice(0, 8).join(" ");
}

// ----------------------------------------------------------------------------- from the first results

/**
 * Pseudo-relevance feedback (RM3-style): the query plus the terms that recur across the best
 * first-pass passages and are not in the query yet.
 */
export function feedbackVariant(
  searchText: string,
  topContents: readonly string[],
  maxTerms: number,
): string | null {
  if (topContents.length < 2) return null;
  const have = new Set(terms(searchText));
  const added: string[] = [];
  for (const f of feedbackTerms(topContents)) {
    if (added.length >= maxTerms) break;
    const s = stem(f.term);
    if (have.has(s)) continue;
    have.add(s);
    added.push(f.term);
  }
  return added.length ? `${searchText} ${added.join(" ")}` : null;
}

/**
 * WordNet synonyms of the query's key terms that the first-pass passages also use (so the sense is
 * the one the book means), appended to the query.
 */
export function synonymVariant(
  searchText: string,
  keyTerms: readonly string[],
  synonyms: (word: string) => string[],
  topContents: readonly string[],
  maxTerms: number,
): string | null {
  const attested = new Set(topContents.flatMap((c) => terms(c)));
  const have = new Set(terms(searchText));
  const added: string[] = [];
  for (const word of keyTerms.slice(0, 4)) {
    for (const raw of synonyms(word)) {
      if (added.length >= maxTerms) break;
      const syn = raw.replace(/_/g, " ").toLowerCase();
      if (!/^[\p{L}][\p{L}' -]{2,39}$/u.test(syn)) continue;
      const ts = terms(syn);
      if (ts.length === 0 || ts.every((t) => have.has(t)) || !ts.every((t) => attested.has(t))) continue;
      for (const t of ts) have.add(t);
      added.push(syn);
    }
  }
  return added.length ? `${searchText} ${added.join(" ")}` : null;
}

const SENTENCE_RE = /[^.!?\n]+[.!?]?/g;

/**
 * The offline stand-in for HyDE (Gao et al. 2022: embed a hypothetical answer, not the question).
 * With no model to write the answer, assemble one from evidence: the sentences of the best
 * first-pass passages that share the most query terms (idf-weighted over those passages), without
 * near-duplicates, in rank order. Embedding that pseudo-passage searches with the vocabulary the
 * book uses for the answer rather than the wording of the question.
 */
export function hypotheticalPassage(
  searchText: string,
  topContents: readonly string[],
  opts: { maxSentences: number; maxChars: number },
): string | null {
  const queryTerms = [...new Set(terms(searchText))];
  if (queryTerms.length === 0 || topContents.length === 0) return null;
  const docs = topContents.map((c) => new Set(terms(c)));
  const idf = new Map(
    queryTerms.map((t) => {
      const df = docs.filter((d) => d.has(t)).length;
      return [t, Math.log(1 + (docs.length + 1) / (df + 0.5))] as const;
    }),
  );
  const candidates: { text: string; score: number; order: number; stems: Set<string> }[] = [];
  topContents.forEach((content, di) => {
    const body = content
      .split("\n")
      .filter((l) => l.trim() && !/^\s*(#|Figure:|Table:|\|)/.test(l))
      .join(" ");
    for (const m of body.matchAll(SENTENCE_RE)) {
      const text = m[0].trim();
      const stems = new Set(terms(text));
      if (stems.size < 4) continue;
      let score = 0;
      for (const t of queryTerms) if (stems.has(t)) score += idf.get(t) ?? 0;
      if (score <= 0) continue;
      // Earlier passages are likelier relevant: a mild rank prior.
      candidates.push({ text, score: score / (1 + 0.15 * di), order: di * 1000 + (m.index ?? 0), stems });
    }
  });
  candidates.sort((a, b) => b.score - a.score || a.order - b.order);
  const picked: typeof candidates = [];
  let chars = 0;
  for (const c of candidates) {
    if (picked.length >= opts.maxSentences || chars + c.text.length > opts.maxChars) continue;
    const dup = picked.some((p) => overlap(p.stems, c.stems) > 0.6);
    if (dup) continue;
    picked.push(c);
    chars += c.text.length + 1;
  }
  if (picked.length === 0) return null;
  return picked
    .sort((a, b) => a.order - b.order)
    .map((p) => p.text)
    .join(" ");
}

function overlap(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / Math.max(1, Math.min(a.size, b.size));
}

/**
 * The scope's own vocabulary for the topic: the heading segments (section and sub-section titles)
 * over the best first-pass passages that share a term with the query, appended to it. Textbooks
 * title sections with the name of the topic a question paraphrases ("contraception" for "short
 * term methods of preventing pregnancy").
 */
export function headingVariant(
  searchText: string,
  topSectionPaths: readonly string[],
  maxSegments: number,
): string | null {
  const queryTerms = new Set(terms(searchText));
  const counts = new Map<string, { text: string; n: number; first: number }>();
  topSectionPaths.forEach((path, rank) => {
    const segments = path
      .split(/\s*(?:>|›)\s*/)
      .map((s) => s.replace(/^\s*[\d.]+\s*/, "").trim())
      .filter(Boolean);
    for (const seg of segments) {
      const ts = terms(seg);
      if (ts.length === 0 || ts.length > 8 || !ts.some((t) => queryTerms.has(t))) continue;
      const key = ts.join(" ");
      const hit = counts.get(key) ?? { text: seg, n: 0, first: rank };
      hit.n++;
      counts.set(key, hit);
    }
  });
  const added: string[] = [];
  const have = new Set(queryTerms);
  for (const { text } of [...counts.values()].sort((a, b) => b.n - a.n || a.first - b.first)) {
    if (added.length >= maxSegments) break;
    const fresh = contentWords(text).filter((w) => !have.has(stem(w)));
    if (fresh.length === 0) continue;
    for (const w of fresh) have.add(stem(w));
    added.push(fresh.join(" "));
  }
  return added.length ? `${searchText} ${added.join(" ")}` : null;
}
