import { existsSync } from "node:fs";
import path from "node:path";
import { filtersOf, type IManifest, readJsonl, readManifest } from "./eval-corpus";
import { openOfflineWorkspace } from "./workspace";

interface IOutOfScope {
  id: string;
  scope: string;
  kind: string;
  query: string;
}

export interface IRealQuery {
  set: string;
  scope: string;
  query: string;
  /** even | odd: the line's parity within its set (tune on even, check on odd). */
  half: "even" | "odd";
}

/**
 * In-scope queries that must not be refused: the open Biology queries, the books' exam questions
 * as a teacher pastes them (MCQs with lettered options, short answers, `--questions` files whose
 * `book` names an ingested corpus) and, for Physics (whose queries are held out), one query per
 * section title.
 */
export async function realQueries(
  manifests: readonly IManifest[],
  openQueries: string,
  questionFiles: readonly string[],
): Promise<IRealQuery[]> {
  const out: IRealQuery[] = [];
  const books = new Set(manifests.map((m) => m.book));
  const push = (set: string, scope: string, queries: string[]) => {
    for (const [i, query] of queries.entries())
      out.push({ set, scope, query, half: i % 2 === 0 ? "even" : "odd" });
  };
  if (books.has("biology-2e"))
    push(
      "biology-2e open",
      "biology-2e",
      (await readJsonl<{ query: string }>(openQueries)).map((q) => q.query),
    );
  for (const file of questionFiles) {
    if (!existsSync(file)) continue;
    const rows = (
      await readJsonl<{
        book: string;
        kind: string;
        stem: string;
        options?: string[];
        needsFigure?: boolean;
      }>(file)
    ).filter((r) => books.has(r.book) && !r.needsFigure);
    for (const book of new Set(rows.map((r) => r.book))) {
      const mine = rows.filter((r) => r.book === book);
      const mcq = mine.filter((r) => (r.options?.length ?? 0) >= 3);
      const other = mine.filter((r) => (r.options?.length ?? 0) < 3);
      if (mcq.length) push(`${book} pasted MCQs (${path.basename(file)})`, book, mcq.map(pastedMcq));
      if (other.length)
        push(
          `${book} questions (${path.basename(file)})`,
          book,
          other.map((r) => r.stem),
        );
    }
  }
  for (const m of manifests)
    if (m.book !== "biology-2e")
      push(
        `${m.book} section titles`,
        m.book,
        m.chapters.flatMap((ch) => ch.sections.filter((x) => !x.number.endsWith(".0")).map((x) => x.title)),
      );
  return out;
}

/** An MCQ as a teacher pastes it: the stem, then "A) … B) …". */
export function pastedMcq(r: { stem: string; options?: string[] }): string {
  return `${r.stem} ${(r.options ?? []).map((o, i) => `${"ABCDEFGH"[i]}) ${o}`).join(" ")}`;
}

/**
 * Refusal: how many out-of-scope queries (eval/retrieval/out-of-scope.jsonl: gibberish, other
 * subjects, the other book's topics) get `items: []`, and how many real queries are wrongly
 * refused — the open Biology queries (even and odd lines) and, for Physics (whose queries are held
 * out), one query per section title of the book. Both books are ingested into one database, as in
 * the two-book benchmark.
 */
export async function runRefusalEval(p: {
  dataDir: string;
  corpora: string[];
  outOfScope: string[];
  openQueries: string;
  questions: string[];
  planTuning: Record<string, number>;
  json: boolean;
  /** Plan and rerank with the configured language model (its reading joins the refusal). */
  llm?: boolean;
  /** Only the `outOfScope` files (e.g. in-scope spelling pairs, whose "refused" is the error). */
  setsOnly?: boolean;
}) {
  const { getLanguageModel, getLlmTimeoutMs } = await import("@/lib/ai/providers");
  const model = p.llm ? getLanguageModel() : null;
  if (p.llm && !model) {
    console.error(
      "--llm needs a language model: set OPENAI_API_KEY (and OPENAI_BASE_URL for another server).",
    );
    process.exit(2);
  }
  const ws = await openOfflineWorkspace(p.dataDir);
  const { retrieve } = await import("@/lib/retrieval/retrieve");
  for (const c of p.corpora) await ws.ingest([c]);
  const manifests: IManifest[] = await Promise.all(p.corpora.map((c) => readManifest(c)));
  const byBook = new Map(manifests.map((m) => [m.book, m]));
  const deps = { db: ws.db, embedder: ws.embedder, model, llmTimeoutMs: model ? getLlmTimeoutMs() : 0 };
  const refused = async (m: IManifest, query: string) => {
    const res = await retrieve(
      deps,
      ws.userId,
      { filters: filtersOf(m), query, topK: 8, enableRerank: true },
      { planTuning: p.planTuning },
    );
    return { refused: !!res.refusal, best: res.items[0]?.relevance ?? res.refusal?.bestRelevance ?? 0 };
  };

  const rows: { scope: string; kind: string; refused: boolean; query: string; best: number }[] = [];
  for (const file of p.outOfScope)
    for (const q of await readJsonl<IOutOfScope>(file)) {
      const m = byBook.get(q.scope);
      if (!m) throw new Error(`no corpus for scope ${q.scope}`);
      const scope = `${path.basename(file, ".jsonl")} · ${q.scope}`;
      rows.push({ scope, kind: q.kind, query: q.query, ...(await refused(m, q.query)) });
    }
  const real: { set: string; refused: boolean; query: string; best: number }[] = [];
  for (const q of p.setsOnly ? [] : await realQueries(manifests, p.openQueries, p.questions))
    real.push({
      set: `${q.set}, ${q.half} lines`,
      query: q.query,
      ...(await refused(byBook.get(q.scope)!, q.query)),
    });
  await ws.db.close();

  const groups = new Map<string, { n: number; refused: number }>();
  for (const r of rows) {
    for (const key of [`${r.scope} · ${r.kind}`, `${r.scope} · all`]) {
      const g = groups.get(key) ?? { n: 0, refused: 0 };
      g.n++;
      if (r.refused) g.refused++;
      groups.set(key, g);
    }
  }
  const realGroups = new Map<string, { n: number; refused: number }>();
  for (const r of real) {
    const g = realGroups.get(r.set) ?? { n: 0, refused: 0 };
    g.n++;
    if (r.refused) g.refused++;
    realGroups.set(r.set, g);
  }
  const out = {
    outOfScope: Object.fromEntries(groups),
    real: Object.fromEntries(realGroups),
    missed: rows.filter((r) => !r.refused).map((r) => `${r.scope}: ${r.query} (${r.best.toFixed(2)})`),
    wronglyRefused: real.filter((r) => r.refused).map((r) => `${r.set}: ${r.query} (${r.best.toFixed(2)})`),
  };
  if (p.json) {
    console.log(JSON.stringify(out, null, 2));
    return;
  }
  console.log("\n## refusal: out-of-scope queries correctly refused");
  console.log("| scope · kind | n | refused |");
  console.log("|---|---:|---:|");
  for (const [k, g] of groups)
    console.log(`| ${k} | ${g.n} | ${g.refused} (${Math.round((100 * g.refused) / g.n)} %) |`);
  console.log("\n## refusal: real queries wrongly refused");
  console.log("| set | n | refused |");
  console.log("|---|---:|---:|");
  for (const [k, g] of realGroups)
    console.log(`| ${k} | ${g.n} | ${g.refused} (${((100 * g.refused) / g.n).toFixed(1)} %) |`);
  if (out.missed.length) console.log(`\nnot refused: ${out.missed.join("; ")}`);
  if (out.wronglyRefused.length) console.log(`wrongly refused: ${out.wronglyRefused.join("; ")}`);
}
