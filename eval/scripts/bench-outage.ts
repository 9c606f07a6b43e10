/**
 * npm run bench:outage -- [--queries 200] [--sets 5] [--port 3230] [--cool-down-ms 30000]
 *
 * What a hanging model provider costs, through the HTTP API of `next start` (embedded mode,
 * fresh data dir with the demo curriculum) and an OpenAI-compatible stand-in on 127.0.0.1:
 *   1. offline baseline (PAPERWISE_LLM=offline): retrieval p50/p95 over the queries, and the
 *      10-question set (6 MCQ + 3 short + 1 long) wall time;
 *   2. the same data, PAPERWISE_LLM=openai pointed at the stand-in, which accepts requests and
 *      never answers (default 3 s step timeout): the requests that open the breakers, then
 *      retrieval p50/p95 and 10-question sets while they are open, with the stand-in's call
 *      counts (zero expected);
 *   3. the stand-in answers again: time until retrieval reranks with the model and until a
 *      generation request calls it again, against the configured cool-down;
 *   4. the stand-in streams like a real model (400 ms to the first token, 50 tokens/s; a new
 *      server start, 30 s step timeout): --stream-sets 6-MCQ sets, each timed to its first decided
 *      question (final or failed) and to its end (target: the set within 3× its first question).
 * --stream-only runs phase 4 alone.
 * Sequential requests (one client), so the figures are latencies, not queueing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { startOpenAIStandIn } from "../../tests/support/openai-stand-in";
import { type INextServer, login, percentile, startNextServer } from "./support/next-server";

const opts = new Command()
  .option("--queries <n>", "retrieval requests per measured phase", "200")
  .option("--sets <n>", "10-question sets per measured phase", "5")
  .option("--port <n>", "port for next start", "3230")
  .option("--cool-down-ms <ms>", "PAPERWISE_BREAKER_COOLDOWN_MS for the provider run", "30000")
  .option("--stream-sets <n>", "6-MCQ sets written by the streaming stand-in (phase 4)", "3")
  .option("--stream-only", "run only phase 4 (the streaming stand-in)")
  .parse()
  .opts<{
    queries: string;
    sets: string;
    port: string;
    coolDownMs: string;
    streamSets: string;
    streamOnly?: boolean;
  }>();

const base = `http://127.0.0.1:${opts.port}`;
const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };
const BLUEPRINT = {
  items: [
    { type: "mcq", count: 6 },
    { type: "short", count: 3 },
    { type: "long", count: 1 },
  ],
};

const dataDir = mkdtempSync(path.join(os.tmpdir(), "paperwise-outage-"));
const standIn = await startOpenAIStandIn("hang");

function startServer(env: Record<string, string>): Promise<INextServer> {
  return startNextServer(Number(opts.port), {
    PAPERWISE_DATA_DIR: dataDir,
    PAPERWISE_LOG_LEVEL: "error",
    ...env,
  });
}

const pct = percentile;
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

const queries = (() => {
  const file = path.join(process.cwd(), "../shared/eval/queries-open.jsonl");
  const all = existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { query: string }).query)
    : ["How does osmosis work?", "light reactions of photosynthesis", "What is a photon?"];
  return Array.from({ length: Number(opts.queries) }, (_, i) => all[i % all.length]!);
})();

async function session() {
  const accessToken = await login(base, "teacher@paperwise.local", "paperwise-teacher");
  const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };

  async function retrieve(query: string) {
    const started = performance.now();
    const res = await fetch(`${base}/api/retrieval/query`, {
      method: "POST",
      headers,
      body: JSON.stringify({ filters: FILTERS, query, topK: 8 }),
    });
    const body = (await res.json()) as {
      items?: { documentId: string; chunkIndex: number }[];
      debug?: { reranker?: string };
    };
    if (!res.ok) throw new Error(`retrieval answered ${res.status}`);
    return {
      ms: performance.now() - started,
      reranker: body.debug?.reranker ?? "?",
      items: body.items ?? [],
    };
  }

  // The generation context: chunks 1–12 of the demo photosynthesis chapter, as in
  // bench:generation (the chapter is the top hit of a photosynthesis query).
  let context: { documentId: string; chunkIndex: number }[] | null = null;
  async function generationContext() {
    if (context) return context;
    const { items } = await retrieve("photosynthesis light reactions chlorophyll");
    const documentId = items[0]?.documentId;
    if (!documentId) throw new Error("no demo chapter to generate from");
    context = Array.from({ length: 12 }, (_, i) => ({ documentId, chunkIndex: i + 1 }));
    return context;
  }

  async function generateSet() {
    const started = performance.now();
    const res = await fetch(`${base}/api/generation`, {
      method: "POST",
      headers,
      body: JSON.stringify({ filters: FILTERS, context: await generationContext(), blueprint: BLUEPRINT }),
    });
    const text = await res.text();
    if (!res.ok || !text.includes('"data-set"')) throw new Error(`generation answered ${res.status}`);
    const finals = (text.match(/"status":"final"/g) ?? []).length;
    const notices = (text.match(/"code":"llm_unavailable"/g) ?? []).length;
    return { ms: performance.now() - started, finals, notices };
  }

  async function breakers() {
    const h = (await (await fetch(`${base}/api/health`)).json()) as {
      providers: { step: string; state: string; opens: number; rejected: number }[];
    };
    return h.providers;
  }
  return { retrieve, generationContext, generateSet, breakers };
}

type TSession = Awaited<ReturnType<typeof session>>;

async function measure(s: TSession, label: string) {
  const before = { ...standIn.calls };
  const times: number[] = [];
  for (const q of queries) times.push((await s.retrieve(q)).ms);
  const sets: { ms: number; finals: number; notices: number }[] = [];
  for (let i = 0; i < Number(opts.sets); i++) sets.push(await s.generateSet());
  const providerCalls = Object.entries(standIn.calls)
    .map(([k, v]) => v - before[k as keyof typeof before])
    .reduce((a, b) => a + b, 0);
  console.log(
    `| ${label} | ${times.length} | ${fmt(pct(times, 0.5))} | ${fmt(pct(times, 0.95))} | ${sets.length} | ${fmt(
      pct(
        sets.map((x) => x.ms),
        0.5,
      ),
    )} | ${fmt(Math.max(...sets.map((x) => x.ms)))} | ${Math.min(...sets.map((x) => x.finals))}/10 | ${sets
      .map((x) => x.notices)
      .join(",")} | ${providerCalls} |`,
  );
  return { p95: pct(times, 0.95), maxSet: Math.max(...sets.map((x) => x.ms)) };
}

/** Phase 4: 6-MCQ sets from a model that streams at a real model's pace. */
async function streamingSets(): Promise<void> {
  standIn.mode = "stream";
  standIn.firstTokenMs = 400;
  standIn.tokensPerSecond = 50;
  server = await startServer({
    PAPERWISE_LLM: "openai",
    OPENAI_API_KEY: "stand-in",
    OPENAI_BASE_URL: standIn.baseURL,
    PAPERWISE_LLM_TIMEOUT_MS: "30000",
  });
  const s = await session();
  const context = await s.generationContext();
  const accessToken = await login(base, "teacher@paperwise.local", "paperwise-teacher");
  console.log(
    "\n| 6-MCQ set (streaming stand-in) | first decided | whole set | ratio | model calls | final |",
  );
  console.log("|---|---:|---:|---:|---:|---:|");
  const ratios: number[] = [];
  for (let i = 0; i < Number(opts.streamSets); i++) {
    const calls = standIn.calls.question;
    const t0 = performance.now();
    const res = await fetch(`${base}/api/generation`, {
      method: "POST",
      headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        filters: FILTERS,
        context,
        seed: i + 1,
        blueprint: { items: [{ type: "mcq", count: 6 }] },
      }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let first = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (!first && /"status":"(final|failed)"/.test(text)) first = performance.now() - t0;
    }
    const total = performance.now() - t0;
    ratios.push(total / first);
    console.log(
      `| set ${i + 1} | ${fmt(first)} | ${fmt(total)} | ${(total / first).toFixed(2)}× | ${standIn.calls.question - calls} | ${(text.match(/"status":"final"/g) ?? []).length}/6 |`,
    );
  }
  console.log(
    `\nTarget: a 6-question set within 3× its first decided question: worst ${Math.max(...ratios).toFixed(2)}×`,
  );
  await server.stop();
  server = null;
}

let server: INextServer | null = null;
try {
  if (opts.streamOnly) {
    await streamingSets();
  } else {
    console.log(
      "| phase | retrievals | p50 | p95 | 10-question sets | set p50 | set max | questions | provider notices per set | provider calls |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|");

    server = await startServer({ PAPERWISE_LLM: "offline" });
    let s = await session();
    for (const q of queries.slice(0, 10)) await s.retrieve(q); // warm-up: routes, WordNet
    await s.generationContext();
    const offline = await measure(s, "offline (PAPERWISE_LLM=offline)");
    await server.stop();

    server = await startServer({
      PAPERWISE_LLM: "openai",
      OPENAI_API_KEY: "stand-in",
      OPENAI_BASE_URL: standIn.baseURL,
      PAPERWISE_BREAKER_COOLDOWN_MS: opts.coolDownMs,
    });
    s = await session();
    // Until the breakers open, every step pays its timeout once per request.
    const opening: string[] = [];
    for (let i = 0; (await s.breakers()).find((b) => b.step === "rerank")?.state !== "open"; i++) {
      const r = await s.retrieve(queries[i % queries.length]!);
      opening.push(`retrieval ${i + 1}: ${fmt(r.ms)} (${r.reranker})`);
    }
    await s.generationContext();
    for (let i = 0; (await s.breakers()).find((b) => b.step === "answerability")?.state !== "open"; i++) {
      const g = await s.generateSet();
      opening.push(`10-question set ${i + 1}: ${fmt(g.ms)} (${g.finals} questions, ${g.notices} notice)`);
    }
    for (const q of queries.slice(0, 10)) await s.retrieve(q);
    const open = await measure(s, "provider hangs, breakers open");
    const states = (await s.breakers()).map(
      (b) => `${b.step}=${b.state} (opened ${b.opens}×, refused ${b.rejected})`,
    );

    // Recovery: the stand-in answers again; poll as a teacher would (a request every 250 ms).
    standIn.mode = "ok";
    const recovered = performance.now();
    let rerankBack = 0;
    while (!rerankBack) {
      const r = await s.retrieve(queries[0]!);
      if (r.reranker === "llm") rerankBack = performance.now() - recovered;
      else await new Promise((res) => setTimeout(res, 250));
    }
    const questionCalls = standIn.calls.question;
    let generationBack = 0;
    while (!generationBack) {
      await s.generateSet();
      if (standIn.calls.question > questionCalls) generationBack = performance.now() - recovered;
      else await new Promise((res) => setTimeout(res, 250));
    }

    console.log("\nOpening (provider hangs, breakers still closed):");
    for (const line of opening) console.log(`- ${line}`);
    console.log(`\nBreakers after the open phase: ${states.join("; ")}`);
    console.log(
      `\nTargets: 10-question set while open ≤ 5 s: max ${fmt(open.maxSet)}; retrieval p95 within 100 ms of offline: ${fmt(
        open.p95,
      )} vs ${fmt(offline.p95)} (${open.p95 - offline.p95 >= 0 ? "+" : ""}${(open.p95 - offline.p95).toFixed(1)} ms)`,
    );
    console.log(
      `After recovery (cool-down ${Number(opts.coolDownMs) / 1000} s): retrieval reranked by the model again after ${fmt(
        rerankBack,
      )}, generation called it again after ${fmt(generationBack)}`,
    );
    await server.stop();
    server = null;
    await streamingSets();
  }
} finally {
  if (server) await server.stop();
  await standIn.close();
  rmSync(dataDir, { recursive: true, force: true });
}
