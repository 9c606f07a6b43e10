import type { ISqlExecutor } from "@/lib/db";
import { dedupeSections, ndcgAt, type TGrades } from "@/lib/eval/metrics";
import type { TRetrievalQueryResponse, TSessionTurn } from "@/schema/retrieval.schema";
import type { IEmbedder } from "@/types/chunk.types";
import { filtersOf, type IManifest, mean, readJsonl } from "./eval-corpus";

interface ISequence {
  id: string;
  turns: { query: string; relevant: TGrades; excluded?: string[]; kind?: string }[];
}

interface ITurnResult {
  kind: string;
  ndcg: number;
  ndcgAlone: number;
  /** An excluded section among the top-8 passages. */
  violated: boolean;
  violatedAlone: boolean;
  /** The best passage is in a grade-2 section. */
  hit1: boolean;
  hit1Alone: boolean;
  bloomShifted: boolean;
}

/**
 * The follow-up sequences of eval/retrieval/follow-ups.jsonl, each turn searched twice: with the
 * session's earlier turns (as the builder sends them) and on its own (as before sessions existed).
 */
export async function runFollowUpEval(p: {
  db: ISqlExecutor;
  userId: string;
  embedder: IEmbedder;
  manifest: IManifest;
  sectionOf: (documentId: string, chunkIndex: number, sectionPath: string | undefined) => string | null;
  file: string;
  planTuning: Record<string, number>;
  json: boolean;
}) {
  const { retrieve } = await import("@/lib/retrieval/retrieve");
  const sequences = await readJsonl<ISequence>(p.file);
  const deps = { db: p.db, embedder: p.embedder, model: null, llmTimeoutMs: 0 };
  const ask = (query: string, turns: TSessionTurn[]) =>
    retrieve(
      deps,
      p.userId,
      {
        filters: filtersOf(p.manifest),
        query,
        topK: 24,
        rerankFanout: 24,
        enableRerank: true,
        ...(turns.length ? { session: { turns } } : {}),
      },
      { planTuning: p.planTuning },
    );
  const sectionsOf = (res: TRetrievalQueryResponse) =>
    res.items.map((it) => p.sectionOf(it.documentId, it.chunkIndex, it.sectionPath));
  const results: ITurnResult[] = [];
  const firstTurns: number[] = [];
  for (const seq of sequences) {
    const turns: TSessionTurn[] = [];
    for (const [i, turn] of seq.turns.entries()) {
      const withSession = await ask(turn.query, turns);
      const chunks = sectionsOf(withSession);
      const ndcg = ndcgAt(dedupeSections(chunks), turn.relevant, 10);
      if (i === 0) firstTurns.push(ndcg);
      else {
        const alone = await ask(turn.query, []);
        const aloneChunks = sectionsOf(alone);
        const excluded = new Set(turn.excluded ?? []);
        const grade2 = (s: string | null | undefined) => !!s && turn.relevant[s] === 2;
        results.push({
          kind: turn.kind ?? "other",
          ndcg,
          ndcgAlone: ndcgAt(dedupeSections(aloneChunks), turn.relevant, 10),
          violated: chunks.slice(0, 8).some((s) => !!s && excluded.has(s)),
          violatedAlone: aloneChunks.slice(0, 8).some((s) => !!s && excluded.has(s)),
          hit1: grade2(chunks[0]),
          hit1Alone: grade2(aloneChunks[0]),
          bloomShifted: !!withSession.session.bloomTargets,
        });
      }
      turns.push(withSession.session.turn);
    }
  }
  const kinds = [...new Set(results.map((r) => r.kind))];
  const summary = (rs: ITurnResult[]) => ({
    n: rs.length,
    ndcg10: mean(rs.map((r) => r.ndcg)),
    ndcg10Alone: mean(rs.map((r) => r.ndcgAlone)),
    top1: mean(rs.map((r) => (r.hit1 ? 1 : 0))),
    top1Alone: mean(rs.map((r) => (r.hit1Alone ? 1 : 0))),
    violations: rs.filter((r) => r.violated).length,
    violationsAlone: rs.filter((r) => r.violatedAlone).length,
    bloomShifted: rs.filter((r) => r.bloomShifted).length,
  });
  const out = {
    sequences: sequences.length,
    firstTurnsNdcg10: mean(firstTurns),
    perKind: Object.fromEntries(kinds.map((k) => [k, summary(results.filter((r) => r.kind === k))])),
    all: summary(results),
  };
  if (p.json) {
    console.log(JSON.stringify(out, null, 2));
    return;
  }
  console.log(
    `\n## follow-ups (${sequences.length} sequences, ${results.length} follow-up turns, ${p.manifest.book})`,
  );
  console.log(`first turns: nDCG@10 ${out.firstTurnsNdcg10.toFixed(3)}`);
  console.log(
    "| follow-up kind | n | nDCG@10 with session | read alone | top-1 in the asked section (session / alone) | excluded section in top 8 (session / alone) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [k, s] of [...Object.entries(out.perKind), ["**all**", out.all] as const]) {
    console.log(
      `| ${k} | ${s.n} | ${s.ndcg10.toFixed(3)} | ${s.ndcg10Alone.toFixed(3)} | ${s.top1.toFixed(2)} / ${s.top1Alone.toFixed(2)} | ${s.violations} / ${s.violationsAlone} |`,
    );
  }
  console.log(
    `Bloom levels shifted on ${out.perKind.bloom?.bloomShifted ?? 0} of ${out.perKind.bloom?.n ?? 0} "harder/easier" turns.`,
  );
}
