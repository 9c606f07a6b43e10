/**
 * Section-level BM25 (pure): each book section of the scope is one document, its text the
 * concatenation of its passages (the BM25 postings summed over them, their lengths added). A
 * pasted exam question is set on one section; a section whose passages together hold most of the
 * question's words outranks a section with one passage that happens to hold many of them, and a
 * section the pooled passages never reached can still be found (section-search.ts reads the
 * postings, this ranks them).
 */

/** One query lexeme's postings in one stored section path, summed over its passages. */
export interface ISectionTermHit {
  documentId: string;
  sectionPath: string;
  lexeme: string;
  /** Term frequency (body + heading weight × heading) summed over the section path's passages. */
  tf: number;
  /** Lexemes of the question's options only (not in the stem): they count `optionWeight`. */
  option: boolean;
}

/** A stored section path's length (its passages' tokens) and chapter. */
export interface ISectionLength {
  documentId: string;
  sectionPath: string;
  chapterNumber: number | null;
  length: number;
}

export interface IRankedSection {
  /** The book section (bookSectionOf). */
  key: string;
  documentId: string;
  chapterNumber: number | null;
  score: number;
}

export interface ISectionRankOptions {
  k1: number;
  b: number;
  /** Weight of a lexeme that only the options use (the stem's lexemes count 1). */
  optionWeight: number;
}

/**
 * BM25 over book sections: `sectionOf` maps a stored section path to its book section (several
 * sub-section paths fold into one), the number of sections and their average length come from
 * `lengths` (the whole scope), document frequency is the number of book sections holding the
 * lexeme. Sections without a hit are left out; ties keep the book's order (lengths' order).
 */
export function rankSections(
  hits: readonly ISectionTermHit[],
  lengths: readonly ISectionLength[],
  sectionOf: (row: { document_id: string; section_path: string }) => string,
  opts: ISectionRankOptions,
): IRankedSection[] {
  const sections = new Map<
    string,
    { documentId: string; chapterNumber: number | null; length: number; order: number }
  >();
  for (const l of lengths) {
    const key = sectionOf({ document_id: l.documentId, section_path: l.sectionPath });
    const s = sections.get(key);
    if (s) s.length += l.length;
    else
      sections.set(key, {
        documentId: l.documentId,
        chapterNumber: l.chapterNumber,
        length: l.length,
        order: sections.size,
      });
  }
  const n = sections.size;
  if (n === 0) return [];
  let total = 0;
  for (const s of sections.values()) total += s.length;
  const avg = total / n || 1;

  // tf per (book section, lexeme) and df per lexeme (book sections holding it).
  const tf = new Map<string, Map<string, number>>();
  const optionOnly = new Map<string, boolean>();
  for (const h of hits) {
    const key = sectionOf({ document_id: h.documentId, section_path: h.sectionPath });
    if (!sections.has(key)) continue;
    const terms = tf.get(key) ?? new Map<string, number>();
    terms.set(h.lexeme, (terms.get(h.lexeme) ?? 0) + h.tf);
    tf.set(key, terms);
    optionOnly.set(h.lexeme, h.option);
  }
  const df = new Map<string, number>();
  for (const terms of tf.values()) for (const lex of terms.keys()) df.set(lex, (df.get(lex) ?? 0) + 1);

  const ranked: (IRankedSection & { order: number })[] = [];
  for (const [key, terms] of tf) {
    const s = sections.get(key)!;
    let score = 0;
    for (const [lex, f] of terms) {
      const d = df.get(lex) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      const norm = f + opts.k1 * (1 - opts.b + (opts.b * s.length) / avg);
      const w = optionOnly.get(lex) ? opts.optionWeight : 1;
      score += (w * idf * (f * (opts.k1 + 1))) / norm;
    }
    if (score > 0)
      ranked.push({ key, documentId: s.documentId, chapterNumber: s.chapterNumber, score, order: s.order });
  }
  ranked.sort((a, b) => b.score - a.score || a.order - b.order);
  return ranked.map(({ order: _order, ...r }) => r);
}

/**
 * The first `depth` ranked sections vote for their chapter document, 1/(rank + 2) each, as the
 * focus stage's passage vote does (sums to 1).
 */
export function sectionRankShares(ranked: readonly IRankedSection[], depth: number): Map<string, number> {
  const shares = new Map<string, number>();
  let total = 0;
  ranked.slice(0, depth).forEach((s, rank) => {
    const w = 1 / (rank + 2);
    total += w;
    shares.set(s.documentId, (shares.get(s.documentId) ?? 0) + w);
  });
  if (total > 0) for (const [k, v] of shares) shares.set(k, v / total);
  return shares;
}
