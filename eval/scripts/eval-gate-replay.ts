/**
 * npm run eval:gate-replay
 *
 * The model path replayed with prepared answers: for each chapter of
 * `../shared/eval/llm-drafts/physics.jsonl`, a set of 4 MCQ + 2 short + 1 long over the six Bloom
 * levels is generated from the passages those drafts cited, with a stand-in model
 * (`MockLanguageModelV3`, no network) that answers each slot with a draft of that chapter of the
 * slot's type (the slot's level first), and a different one for a rewrite. Reported: slots filled by
 * the model, by the offline generator (and why), left empty; model calls; warnings on model
 * questions. It measures the gate and the slot logic, not a model's writing: the drafts were
 * written for other slots, so a level may not match.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";

const { runGeneration } = await import("@/lib/generation/generate");
const { GenerationRequestSchema } = await import("@/schema/generation.schema");
const { BLOOM_LEVELS } = await import("@/types/bloom.types");
type IContextChunk = import("@/types/generation.types").IContextChunk;

interface IDraftRow {
  id: string;
  type: "mcq" | "short" | "long" | null;
  marks: number;
  requestedLevel: string | null;
  gateReason?: string;
  draft: Record<string, unknown> & { options: string[] | null };
  passages: { id: string; text: string }[];
  teacher: { demand: string };
}
const rows = (await readFile(path.resolve("../shared/eval/llm-drafts/physics.jsonl"), "utf8"))
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as IDraftRow);
const typeOf = (d: IDraftRow) => d.type ?? (d.draft.options ? "mcq" : d.marks >= 4 ? "long" : "short");
const levelOf = (d: IDraftRow) =>
  d.requestedLevel ?? /labelled (\w+)/.exec(d.gateReason ?? "")?.[1] ?? d.teacher.demand;
const groups = new Map<string, IDraftRow[]>();
for (const d of rows) {
  const doc = d.passages[0]!.id.split(":")[0]!;
  groups.set(doc, [...(groups.get(doc) ?? []), d]);
}

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const totals = { slots: 0, model: 0, offline: 0, empty: 0, calls: 0, warned: 0, rewritten: 0 };
const offlineWhy: Record<string, number> = {};
const byTypeModel: Record<string, string> = {};

let seed = 1;
for (const [, drafts] of groups) {
  const chunks = new Map<string, IContextChunk>();
  for (const d of drafts)
    for (const p of d.passages) {
      const [documentId, index] = p.id.split(":");
      const section = /^## (\d+\.\d+ .+)$/m.exec(p.text)?.[1];
      chunks.set(p.id, {
        documentId: documentId!,
        chunkIndex: Number(index),
        content: p.text,
        title: "Physics",
        sectionPath: `Physics > ${section ?? "section"}`,
      });
    }
  const used = new Map<string, number>();
  const respond = (options: LanguageModelV3CallOptions) => {
    totals.calls++;
    const prompt = JSON.stringify(options.prompt);
    const type = /Write a multiple-choice/.test(prompt)
      ? "mcq"
      : /Write a short-answer/.test(prompt)
        ? "short"
        : "long";
    const level = /Bloom level: (\w+)/.exec(prompt)?.[1] ?? "";
    const pool = drafts
      .filter((d) => typeOf(d) === type)
      .sort((a, b) => Number(levelOf(b) === level) - Number(levelOf(a) === level));
    const key = `${type}:${level}`;
    const n = used.get(key) ?? 0;
    used.set(key, n + 1);
    const pick = pool[n % Math.max(1, pool.length)] ?? drafts[0]!;
    return JSON.stringify(pick.draft);
  };
  const model = new MockLanguageModelV3({
    doStream: async (options) => ({
      stream: simulateReadableStream<LanguageModelV3StreamPart>({
        chunks: [
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: respond(options) },
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
        ],
      }),
    }),
  });
  const list = [...chunks.values()];
  const request = GenerationRequestSchema.parse({
    filters: { board: "OpenStax", grade: "11", subject: "Physics" },
    context: list.map((c) => ({ documentId: c.documentId, chunkIndex: c.chunkIndex })),
    blueprint: {
      items: [
        { type: "mcq", count: 4 },
        { type: "short", count: 2, marks: 3 },
        { type: "long", count: 1, marks: 5 },
      ],
      bloomTargets: [...BLOOM_LEVELS],
    },
    seed: seed++,
  });
  const result = await runGeneration(
    { model, timeoutMs: 5000, scope: list, concurrency: 1 },
    list,
    request,
    { question: () => undefined, progress: () => undefined, error: () => undefined },
    (i) => `slot-${i}`,
  );
  totals.slots += result.slots.length;
  totals.empty += result.slots.length - result.questions.length;
  for (const q of result.questions) {
    if (q.source === "llm") {
      totals.model++;
      if (q.validation.flags.length) totals.warned++;
      if (q.validation.regenerated) totals.rewritten++;
      byTypeModel[q.type] = `${Number(byTypeModel[q.type]?.split(" ")[0] ?? 0) + 1}`;
    } else {
      totals.offline++;
      const why = (q.validation as { offlineReason?: string }).offlineReason ?? "(no reason recorded)";
      const short = why.replace(/\(.*$/, "").trim();
      offlineWhy[short] = (offlineWhy[short] ?? 0) + 1;
    }
  }
}
console.log(`## Model path replayed with the ${rows.length} prepared drafts (${groups.size} chapters)\n`);
console.log("| measure | result |\n|---|---:|");
console.log(`| slots | ${totals.slots} |`);
console.log(
  `| filled by the model | ${totals.model} (${((100 * totals.model) / totals.slots).toFixed(1)} %) |`,
);
console.log(
  `| … by type (mcq / short / long) | ${byTypeModel.mcq ?? 0} / ${byTypeModel.short ?? 0} / ${byTypeModel.long ?? 0} |`,
);
console.log(`| … with warnings on the card | ${totals.warned} |`);
console.log(`| … the rewrite kept | ${totals.rewritten} |`);
console.log(`| filled by the offline generator | ${totals.offline} |`);
for (const [why, n] of Object.entries(offlineWhy)) console.log(`| … ${why} | ${n} |`);
console.log(`| left empty | ${totals.empty} |`);
console.log(`| model calls | ${totals.calls} |`);
