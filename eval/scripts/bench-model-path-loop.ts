/**
 * npx tsx --conditions=react-server eval/scripts/bench-model-path-loop.ts [--mode pool|inline]
 *   [--sets 2] [--first-token-ms 400] [--token-ms 20]
 *
 * Event-loop delay of the thread that runs a model-written set (issue 26, point 1), in process:
 * `monitorEventLoopDelay` (10 ms resolution) around each set, the first one cold (modules,
 * knowledge) and the next ones warm. The set: 4 MCQ + 2 short + 1 long on 12 passages of the demo
 * cell-structure chapter (the rest of the chapter as scope), six slots at once, a streaming
 * stand-in model (`ai/test`, --first-token-ms to the first token, one token per --token-ms) whose
 * every draft the gate refuses (its key is not in the passages), so that each slot is gated twice
 * and then written by the offline fallback: the most offline work a model-written set does.
 * `--mode pool` passes the worker pool's offload (what the generation route does); `--mode inline`
 * runs it all on this thread (the behaviour before).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Command } from "commander";
import { runGeneration } from "@/lib/generation/generate";
import { extractDocument } from "@/lib/ingestion/extract";
import { chunkDocumentWithZones } from "@/lib/ingestion/zones";
import { openPoolOffload } from "@/lib/workers/generation";
import { getShortLane } from "@/lib/workers/pool";
import type { TGenerationRequest } from "@/schema/generation.schema";
import type { IContextChunk } from "@/types/generation.types";
import { streamingModel, unsupportedMcqReply as unsupported } from "../../tests/support/mock-models";

const opts = new Command()
  .option("--mode <m>", "pool | inline", "pool")
  .option("--sets <n>", "sets in a row (the first is cold)", "2")
  .option("--first-token-ms <n>", "stand-in: before the first token", "400")
  .option("--token-ms <n>", "stand-in: between tokens", "20")
  .parse()
  .opts<{ mode: string; sets: string; firstTokenMs: string; tokenMs: string }>();

const file = path.join(process.cwd(), "supabase/seed/demo/biology-2e/ch04-cell-structure.md");
const doc = await extractDocument(new Uint8Array(readFileSync(file)), "text/markdown");
const documentId = "00000000-0000-4000-8000-000000000004";
const scope: IContextChunk[] = chunkDocumentWithZones(doc).map((c) => ({
  documentId,
  chunkIndex: c.chunkIndex,
  content: c.content,
  title: "Cell Structure",
  sectionPath: c.sectionPath,
  zone: c.zone,
  zoneSpans: c.zoneSpans,
}));

console.log(`mode ${opts.mode}; ${scope.length} passages in the chapter`);
console.log("| set | whole set | event-loop delay max | p99 | mean | questions | model calls |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (let s = 1; s <= Number(opts.sets); s++) {
  const start = 1 + (((s - 1) * 12) % Math.max(1, scope.length - 12));
  const chunks = scope.filter((c) => c.chunkIndex >= start && c.chunkIndex < start + 12);
  const request = {
    filters: { board: "OpenStax", grade: "11", subject: "Biology" },
    context: chunks.map((c) => ({ documentId, chunkIndex: c.chunkIndex })),
    seed: s,
    blueprint: {
      items: [
        { type: "mcq", count: 4 },
        { type: "short", count: 2 },
        { type: "long", count: 1 },
      ],
    },
  } as TGenerationRequest;
  const model = streamingModel(unsupported, {
    firstTokenMs: Number(opts.firstTokenMs),
    tokenMs: Number(opts.tokenMs),
    tokenChars: 6,
  });
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const t0 = performance.now();
  const result = await runGeneration(
    {
      model,
      timeoutMs: 60_000,
      scope,
      ...(opts.mode === "pool" ? { offload: openPoolOffload } : {}),
    },
    chunks,
    request,
    { question: () => undefined, progress: () => undefined, error: () => undefined },
    (i) => `s${s}q${i}`,
  );
  const ms = performance.now() - t0;
  h.disable();
  console.log(
    `| ${s}${s === 1 ? " (cold)" : ""} | ${(ms / 1000).toFixed(2)} s | ${(h.max / 1e6).toFixed(0)} ms | ${(h.percentile(99) / 1e6).toFixed(0)} ms | ${(h.mean / 1e6).toFixed(1)} ms | ${result.questions.length} | ${model.calls.length} |`,
  );
}
console.log(`short lane ran: ${JSON.stringify(getShortLane().stats().ran)}`);
await getShortLane().close();
