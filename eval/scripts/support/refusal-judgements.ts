import type { IQueryJudgement } from "@/lib/retrieval/calibrate";
import { filtersOf, type IManifest, readJsonl, readManifest } from "./eval-corpus";
import { realQueries } from "./eval-refusal";
import { openOfflineWorkspace } from "./workspace";

/** One calibration query with what the judge saw (a line of the refusal fit's data). */
export interface IJudgedQuery {
  set: string;
  /** The out-of-scope file it came from (out-of-scope queries only). */
  file?: string;
  scope: string;
  query: string;
  half: "even" | "odd";
  inScope: boolean;
  /** A hand-written in-scope control line (`--controls`): reported, never fitted on or cut by. */
  control?: boolean;
  judged?: IQueryJudgement;
}

/**
 * Runs every calibration query through the real retrieval (offline providers, both books in one
 * database, topK 8, refusal off) and keeps the judge's query-level evidence: the in-scope sets of
 * eval-refusal.ts `realQueries` (even and odd lines) and the out-of-scope calibration files (all
 * lines count as "even": they are fitted on). Never give it the held-out file.
 */
export async function judgeCalibrationQueries(p: {
  dataDir: string;
  corpora: readonly string[];
  openQueries: string;
  questions: readonly string[];
  outOfScope: readonly string[];
  /** Hand-written in-scope lines in the out-of-scope files' shape (scope, kind, query). */
  controls?: readonly string[];
  onProgress?: (done: number) => void;
}): Promise<IJudgedQuery[]> {
  const ws = await openOfflineWorkspace(p.dataDir);
  for (const c of p.corpora) await ws.ingest([c]);
  const { retrieve } = await import("@/lib/retrieval/retrieve");
  const manifests: IManifest[] = await Promise.all(p.corpora.map((c) => readManifest(c)));
  const byBook = new Map(manifests.map((m) => [m.book, m]));
  const judge = async (scope: string, query: string) => {
    const m = byBook.get(scope);
    if (!m) throw new Error(`no corpus for scope ${scope}`);
    let judged: IQueryJudgement | undefined;
    await retrieve(
      { db: ws.db, embedder: ws.embedder, model: null, llmTimeoutMs: 0 },
      ws.userId,
      { filters: filtersOf(m), query, topK: 8, enableRerank: true },
      {
        refuse: false,
        planTuning: { latencyBudgetMs: Number.POSITIVE_INFINITY },
        onJudged: (_, q) => {
          judged = q;
        },
      },
    );
    return judged;
  };
  const out: IJudgedQuery[] = [];
  for (const q of await realQueries(manifests, p.openQueries, p.questions)) {
    out.push({ ...q, inScope: true, judged: await judge(q.scope, q.query) });
    p.onProgress?.(out.length);
  }
  for (const file of p.outOfScope)
    for (const q of await readJsonl<{ scope: string; kind: string; query: string }>(file)) {
      out.push({
        set: `out-of-scope ${q.kind}`,
        file: file.split("/").pop() ?? file,
        scope: q.scope,
        query: q.query,
        half: "even",
        inScope: false,
        judged: await judge(q.scope, q.query),
      });
      p.onProgress?.(out.length);
    }
  for (const file of p.controls ?? [])
    for (const q of await readJsonl<{ scope: string; query: string }>(file)) {
      out.push({
        set: "in-scope controls",
        file: file.split("/").pop() ?? file,
        scope: q.scope,
        query: q.query,
        half: "odd",
        inScope: true,
        control: true,
        judged: await judge(q.scope, q.query),
      });
      p.onProgress?.(out.length);
    }
  await ws.db.close();
  return out;
}
