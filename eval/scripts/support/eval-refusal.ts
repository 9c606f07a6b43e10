import { filtersOf, type IManifest, readJsonl, readManifest } from "./eval-corpus";
import { openOfflineWorkspace } from "./workspace";

interface IOutOfScope {
  id: string;
  scope: string;
  kind: string;
  query: string;
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
  outOfScope: string;
  openQueries: string;
  planTuning: Record<string, number>;
  json: boolean;
}) {
  const ws = await openOfflineWorkspace(p.dataDir);
  const { retrieve } = await import("@/lib/retrieval/retrieve");
  for (const c of p.corpora) await ws.ingest([c]);
  const manifests: IManifest[] = await Promise.all(p.corpora.map((c) => readManifest(c)));
  const byBook = new Map(manifests.map((m) => [m.book, m]));
  const deps = { db: ws.db, embedder: ws.embedder, model: null, llmTimeoutMs: 0 };
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
  for (const q of await readJsonl<IOutOfScope>(p.outOfScope)) {
    const m = byBook.get(q.scope);
    if (!m) throw new Error(`no corpus for scope ${q.scope}`);
    rows.push({ scope: q.scope, kind: q.kind, query: q.query, ...(await refused(m, q.query)) });
  }
  const real: { set: string; refused: boolean; query: string; best: number }[] = [];
  const bio = byBook.get("biology-2e");
  if (bio) {
    const open = await readJsonl<{ query: string }>(p.openQueries);
    for (const [i, q] of open.entries()) {
      real.push({
        set: `biology-2e open, ${i % 2 === 0 ? "even" : "odd"} lines`,
        query: q.query,
        ...(await refused(bio, q.query)),
      });
    }
  }
  const phys = byBook.get("physics");
  if (phys) {
    for (const ch of phys.chapters)
      for (const s of ch.sections.filter((x) => !x.number.endsWith(".0")))
        real.push({ set: "physics section titles", query: s.title, ...(await refused(phys, s.title)) });
  }
  await ws.db.close();

  const groups = new Map<string, { n: number; refused: number }>();
  for (const r of rows) {
    for (const key of [`${r.scope} · ${r.kind}`, `${r.scope} · all`, "all out-of-scope"]) {
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
