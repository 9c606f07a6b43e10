/**
 * npm run bench:generation — generation latency through the real route handler over the demo
 * photosynthesis chapter, in a fresh embedded database:
 *
 * 1. the offline generator: time to the first final question part and to the whole set, for 10-
 *    and 20-question blueprints (5 runs each after a warm-up);
 * 2. a streaming language model (`ai/test` MockLanguageModelV3 over `simulateReadableStream`:
 *    400 ms to the first token, then 50 tokens/s of about 4 characters): a 10-question set written
 *    one slot at a time (PAPERWISE_GENERATION_CONCURRENCY=1) and with the default concurrency.
 *    It reports the time to the first visible characters of a question (from the request, and
 *    from the moment the cards are announced, when the slots' model calls start), to the first
 *    final question, and to the whole set. The model writes the questions the offline generator
 *    wrote for the same slots (so the gate can pass them), else a question at another level,
 *    which the gate refuses and which is then rewritten once: the same work in both runs.
 *
 * Options: --runs N (streaming runs per setting, default 3), --first-token-ms N (400),
 * --token-ms N (20), --notes (print why the gate refused drafts), --skip-offline, --skip-streaming.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import { passageKey, type TQuestion } from "@/types/generation.types";
import { openOfflineWorkspace } from "./support/workspace";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const RUNS = option("--runs", 3);
const FIRST_TOKEN_MS = option("--first-token-ms", 400);
const TOKEN_MS = option("--token-ms", 20);
const TOKEN_CHARS = 4;

const dir = await mkdtemp(path.join(os.tmpdir(), "paperwise-bench-gen-"));
const workspace = await openOfflineWorkspace(dir, {
  PAPERWISE_RATE_LIMIT_PER_MIN: "0",
  PAPERWISE_LOG_LEVEL: "error",
});
const { issueSession } = await import("@/lib/auth/sessions");
const { createAccount, generatePassword } = await import("@/lib/auth/accounts");
const { POST } = await import("@/app/api/generation/route");
const { setLanguageModelForProcess } = await import("@/lib/ai/providers");
const { getConfig, setConfigForProcess } = await import("@/lib/config/env");

const { db } = workspace;
// A fresh workspace has no demo accounts (PAPERWISE_SEED_DEMO=false): the bench has its own teacher.
const teacher = await createAccount(db, {
  email: "bench-teacher@paperwise.local",
  password: generatePassword(),
  role: "teacher",
});
const [book] = await workspace.ingest(
  [path.join(process.cwd(), "supabase/seed/demo/biology-2e/ch08-photosynthesis.md")],
  {
    board: "OpenStax",
    grade: "11",
    subject: "Biology",
  },
);
const documentId = book!.ingestion!.document_id!;
const token = (await issueSession(db, teacher)).accessToken;

interface IPart {
  type: string;
  data?: { status?: string; draft?: { promptText: string }; question?: TQuestion };
}

/** One request, timed part by part as the stream arrives. */
async function once(counts: [number, number, number]) {
  const body = {
    filters: { board: "OpenStax", grade: "11", subject: "Biology" },
    context: Array.from({ length: 12 }, (_, i) => ({ documentId, chunkIndex: i + 1 })),
    blueprint: {
      items: [
        { type: "mcq", count: counts[0] },
        { type: "short", count: counts[1] },
        { type: "long", count: counts[2] },
      ],
      bloomTargets: ["Remember", "Understand", "Apply", "Analyze", "Evaluate", "Create"],
    },
  };
  const started = performance.now();
  const res = await POST(
    new Request("http://localhost/api/generation", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    {},
  );
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const t = { announced: 0, visible: 0, final: 0 };
  const questions: TQuestion[] = [];
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    const now = performance.now() - started;
    for (const line of lines) {
      if (!line.startsWith("data: {")) continue;
      const part = JSON.parse(line.slice(6)) as IPart;
      if (part.type !== "data-question") continue;
      const status = part.data?.status;
      t.announced ||= now;
      if (status === "final") {
        t.final ||= now;
        questions.push(part.data!.question!);
      }
      if ((status === "draft" && part.data?.draft?.promptText) || status === "final") t.visible ||= now;
      if (args.includes("--notes") && status === "generating" && (part.data as { note?: string }).note)
        console.error((part.data as { note?: string }).note);
    }
  }
  return { ...t, total: performance.now() - started, questions };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => x.toFixed(0);

if (!args.includes("--skip-offline")) {
  console.log("Offline generator (p50 of 5 runs after a warm-up)\n");
  console.log("| blueprint | questions | first question p50 ms | full set p50 ms | max ms |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [label, counts] of [
    ["6 MCQ + 3 short + 1 long", [6, 3, 1]],
    ["12 MCQ + 6 short + 2 long", [12, 6, 2]],
  ] as const) {
    await once(counts as [number, number, number]);
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await once(counts as [number, number, number]));
    console.log(
      `| ${label} | ${runs[0]!.questions.length} | ${median(runs.map((r) => r.final)).toFixed(1)} | ${median(runs.map((r) => r.total)).toFixed(1)} | ${Math.max(...runs.map((r) => r.total)).toFixed(1)} |`,
    );
  }
}

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const TYPE_OF: Record<string, TQuestion["type"]> = {
  "multiple-choice": "mcq",
  "short-answer": "short",
  "long-answer": "long",
};

/** The question as a model would return it (LlmQuestionSchema). */
function asModelOutput(q: TQuestion): string {
  return JSON.stringify({
    promptText: q.promptText,
    options: q.type === "mcq" ? q.options : null,
    correctIndex: q.type === "mcq" ? q.correctIndex : null,
    explanation: q.type === "mcq" ? q.explanation : null,
    distractorRationales: q.type === "mcq" ? q.distractorRationales : null,
    suggestedAnswer: q.type === "mcq" ? null : q.suggestedAnswer,
    evaluatorKeywords: q.type === "mcq" ? null : q.evaluatorKeywords.map((k) => k.slice(0, 60)),
    markingScheme: q.type === "mcq" ? null : (q.markingScheme ?? null),
    citations: q.contextRefs.map((r) => passageKey(r)),
  });
}

/**
 * A model that answers the answerability check after the first-token delay and streams each
 * question at the fixed rate: for a slot, an offline question of its type and level not yet
 * used in this request, else one of its type (at another level: the gate refuses it).
 */
function streamingModel(pool: TQuestion[]) {
  let unused = [...pool];
  let calls = 0;
  const pick = (options: LanguageModelV3CallOptions) => {
    const prompt = JSON.stringify(options.prompt);
    const type =
      TYPE_OF[/Write a (multiple-choice|short-answer|long-answer)/.exec(prompt)?.[1] ?? ""] ?? "mcq";
    const level = /Bloom level: (\w+)/.exec(prompt)?.[1];
    const rank = (l: string | undefined) => BLOOM_LEVELS.indexOf(l as EBloomLevel);
    const q =
      unused.find((c) => c.type === type && c.bloomLevel === level) ??
      // A question whose demand is above the slot's level is accepted (with a reviewer note).
      unused.find((c) => c.type === type && rank(c.validation.demand ?? c.bloomLevel) >= rank(level)) ??
      pool.find((c) => c.type === type) ??
      pool[0]!;
    unused = unused.filter((c) => c !== q);
    return asModelOutput(q);
  };
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      await new Promise((r) => setTimeout(r, FIRST_TOKEN_MS));
      return {
        content: [
          { type: "text", text: JSON.stringify({ enough: true, rationale: "Enough distinct facts." }) },
        ],
        finishReason: { unified: "stop", raw: "stop" },
        usage: USAGE,
        warnings: [],
      };
    },
    doStream: async (options) => {
      calls++;
      const text = pick(options);
      const deltas: LanguageModelV3StreamPart[] = [];
      for (let at = 0; at < text.length; at += TOKEN_CHARS)
        deltas.push({ type: "text-delta", id: "t", delta: text.slice(at, at + TOKEN_CHARS) });
      return {
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [
            { type: "text-start", id: "t" },
            ...deltas,
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
          ],
          initialDelayInMs: FIRST_TOKEN_MS,
          chunkDelayInMs: TOKEN_MS,
        }),
      };
    },
  });
  return {
    model,
    get calls() {
      return calls;
    },
    reset() {
      unused = [...pool];
      calls = 0;
    },
  };
}

if (!args.includes("--skip-streaming")) {
  const counts: [number, number, number] = [6, 3, 1];
  setLanguageModelForProcess(null);
  const offline = await once(counts);
  const mock = streamingModel(offline.questions);
  // Generous per-call limits: the mock's long answers take several seconds at 50 tokens/s.
  setLanguageModelForProcess(mock.model, 5_000);
  const base = getConfig();
  console.log(
    `\nStreaming model (ai/test, ${FIRST_TOKEN_MS} ms to the first token, ${1000 / TOKEN_MS} tokens/s of ${TOKEN_CHARS} characters), 6 MCQ + 3 short + 1 long; p50 of ${RUNS} runs\n`,
  );
  console.log(
    "| slots at once | first visible characters, from the request ms | … from the cards' announcement ms | first final question ms | full set ms | questions (from the model) | model calls |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|");
  const totals: Record<number, number> = {};
  for (const concurrency of [1, base.generationConcurrency]) {
    setConfigForProcess({ ...base, generationConcurrency: concurrency });
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      mock.reset();
      runs.push({ ...(await once(counts)), calls: mock.calls });
    }
    totals[concurrency] = median(runs.map((r) => r.total));
    const r = runs[0]!;
    console.log(
      `| ${concurrency} | ${ms(median(runs.map((x) => x.visible)))} | ${ms(median(runs.map((x) => x.visible - x.announced)))} | ${ms(median(runs.map((x) => x.final)))} | ${ms(totals[concurrency]!)} | ${r.questions.length} (${r.questions.filter((q) => q.source === "llm").length}) | ${r.calls} |`,
    );
  }
  setConfigForProcess(base);
  console.log(
    `\nA 10-question set with ${base.generationConcurrency} slots at once takes ${((100 * totals[base.generationConcurrency]!) / totals[1]!).toFixed(1)} % of the one-slot-at-a-time time.`,
  );
}
setLanguageModelForProcess(undefined);
await db.close();
await rm(dir, { recursive: true, force: true });
