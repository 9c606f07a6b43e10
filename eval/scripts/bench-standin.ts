/**
 * npm run bench:standin -- [--sections physics:8.1,…] [--answers eval/generation/standin/answers.jsonl]
 *                          [--capture /tmp/standin-prompts.jsonl] [--out eval/generation/standin/results.jsonl]
 *
 * The language-model path measured through the real API with a capable stand-in model: an embedded
 * Paperwise (own data dir, the Physics corpus ingested once) whose provider is the OpenAI client
 * (`PAPERWISE_LLM=openai`, `OPENAI_API_KEY=test`, `OPENAI_BASE_URL` → a stand-in on 127.0.0.1,
 * eval/scripts/support/standin-model.ts). For each section (default: 6 Physics sections outside the 8
 * of ../shared/eval/llm-drafts), the route handlers are called as a teacher's browser would:
 * POST /api/retrieval/query (the section title inside its chapter, top 8, no rerank: the stand-in
 * answers only question prompts), then POST /api/generation with those passages and a set of
 * 4 MCQ + 2 short (3 marks) + 1 long (5 marks) over the six Bloom levels. The stand-in answers each
 * question prompt with the draft prepared for that section, type and level (a prepared rewrite
 * when the prompt carries the gate's feedback). Reported: slots filled by the model / offline (with
 * the card's reason) / empty, levels and types delivered, the gate's refusals (the feedback of each
 * rewrite request) and the warnings on delivered questions. --out writes every question with the
 * passages it cites (the shape of eval/generation/round3.samples.jsonl) for independent readers.
 * --first-drafts-only measures the first drafts alone (no prepared rewrite is used).
 * --capture appends every question prompt the app sent (to write the prepared answers from).
 */

import { writeFileSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Command } from "commander";
import { passageKey } from "@/types/generation.types";
import { readManifest } from "./support/eval-corpus";
import { readPreparedDrafts, startPreparedStandIn } from "./support/standin-model";
import { openOfflineWorkspace } from "./support/workspace";

const DEFAULT_SECTIONS = [
  "physics:8.1",
  "physics:9.1",
  "physics:11.2",
  "physics:14.1",
  "physics:19.1",
  "physics:22.3",
];

const opts = new Command()
  .option("--corpus <dir>", "the Physics corpus", "../shared/eval/corpus/physics")
  .option("--sections <ids>", "comma-separated section ids", DEFAULT_SECTIONS.join(","))
  .option("--answers <file>", "prepared answers (JSONL)", "eval/generation/standin/answers.jsonl")
  .option(
    "--first-drafts-only",
    "ignore the prepared rewrites (a rewrite request gets the first draft again)",
  )
  .option("--capture <file>", "append every question prompt the app sends (JSONL)")
  .option("--out <file>", "write the delivered questions with their cited passages (JSONL)")
  .option("--read <file>", "the same questions as Markdown, for a reader")
  .option("--data-dir <dir>", "embedded database cache", ".bench/standin")
  .option(
    "--timeout-ms <ms>",
    "PAPERWISE_LLM_TIMEOUT_MS (the stand-in answers at once; this only guards a loaded machine)",
    "30000",
  )
  .parse()
  .opts<{
    corpus: string;
    sections: string;
    answers: string;
    capture?: string;
    firstDraftsOnly?: boolean;
    out?: string;
    read?: string;
    dataDir: string;
    timeoutMs: string;
  }>();

const drafts = readPreparedDrafts(opts.answers).filter((d) => !opts.firstDraftsOnly || !d.rewrite);
const model = await startPreparedStandIn(drafts, opts.capture);
const workspace = await openOfflineWorkspace(path.resolve(opts.dataDir), {
  PAPERWISE_LLM: "openai",
  OPENAI_API_KEY: "test",
  OPENAI_BASE_URL: model.standIn.baseURL,
  PAPERWISE_LLM_TIMEOUT_MS: opts.timeoutMs,
  PAPERWISE_RATE_LIMIT_PER_MIN: "0",
  PAPERWISE_LOG_LEVEL: "error",
});
const { issueSession } = await import("@/lib/auth/sessions");
const { POST: retrieveRoute } = await import("@/app/api/retrieval/query/route");
const { POST: generateRoute } = await import("@/app/api/generation/route");
const { BLOOM_LEVELS } = await import("@/types/bloom.types");
type TQuestion = import("@/types/generation.types").TQuestion;

const manifest = await readManifest(opts.corpus);
const sections = opts.sections.split(",").map((id) => {
  for (const c of manifest.chapters) {
    const s = c.sections.find((x) => x.id === id);
    if (s) return { ...s, chapter: c.chapterNumber };
  }
  throw new Error(`no section ${id} in ${opts.corpus}`);
});
const filters = { board: manifest.board, grade: String(manifest.grade), subject: manifest.subject };
const { db } = workspace;
const [count] = await db.query<{ n: number }>("select count(*)::int as n from documents where subject = $1", [
  manifest.subject,
]);
if (!count?.n) await workspace.ingest([opts.corpus]);
const [owner] = await db.query<{ id: string; email: string; role: "admin" }>(
  "select id, email, role from profiles where id = $1",
  [workspace.userId],
);
const token = (await issueSession(db, owner!)).accessToken;

const call = (route: (r: Request, c: object) => Promise<Response>, url: string, json: unknown) =>
  route(
    new Request(new URL(url, "http://localhost"), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(json),
    }),
    {},
  );

interface IPart {
  type: string;
  data?: Record<string, unknown>;
}
const inc = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1;
};
const totals = { slots: 0, model: 0, offline: 0, empty: 0, rewritten: 0, warned: 0 };
const offlineWhy: Record<string, number> = {};
const levels: Record<string, string[]> = {};
const refusals: string[] = [];
const gateNotes: string[] = [];
const warnings: Record<string, number> = {};
const setWarnings: string[] = [];
const lines: string[] = [];
const rows: string[] = [];
const reading: string[] = [];

// The model's timeout is an idle timer in this process: a synchronous stretch longer than it fires the
// timer before the stand-in's (already sent) answer is read. Reported so a timeout can be told apart.
const loop = monitorEventLoopDelay({ resolution: 20 });
loop.enable();
for (const section of sections) {
  model.current = section.id;
  const before = model.prompts.length;
  const found = await call(retrieveRoute, "/api/retrieval/query", {
    filters: { ...filters, chapterNumber: section.chapter },
    query: section.title,
    topK: 8,
    enableRerank: false,
  });
  if (!found.ok) throw new Error(`retrieval answered ${found.status}: ${await found.text()}`);
  const items = ((await found.json()) as { items: { documentId: string; chunkIndex: number }[] }).items;
  const res = await call(generateRoute, "/api/generation", {
    filters,
    context: items.map((i) => ({ documentId: i.documentId, chunkIndex: i.chunkIndex })),
    blueprint: {
      items: [
        { type: "mcq", count: 4 },
        { type: "short", count: 2, marks: 3 },
        { type: "long", count: 1, marks: 5 },
      ],
      bloomTargets: [...BLOOM_LEVELS],
    },
    topic: section.title,
    seed: 1,
  });
  if (!res.ok) throw new Error(`generation answered ${res.status}: ${await res.text()}`);
  const parts = (await res.text())
    .split("\n")
    .filter((l) => l.startsWith("data: ") && !l.includes("[DONE]"))
    .map((l) => JSON.parse(l.slice(6)) as IPart);
  const finals = new Map<string, { slot: { type: string; bloomLevel: string }; question: TQuestion }>();
  const failed = new Map<string, { slot: { type: string; bloomLevel: string }; reason: string }>();
  for (const p of parts) {
    if (p.type !== "data-question" || !p.data) continue;
    const d = p.data as { slot: { id: string; type: string; bloomLevel: string }; status: string };
    if (d.status === "final") finals.set(d.slot.id, p.data as never);
    if (d.status === "failed") failed.set(d.slot.id, p.data as never);
    const note = (p.data as { note?: string }).note;
    if (d.status === "generating" && note?.startsWith("The quality gate"))
      gateNotes.push(`${section.id} ${d.slot.type}/${d.slot.bloomLevel}: ${note}`);
  }
  const set = parts.find((p) => p.type === "data-set")?.data as { warnings?: string[] } | undefined;
  for (const w of set?.warnings ?? []) setWarnings.push(`${section.id}: ${w}`);
  const passages = new Map<string, { section: string; text: string }>();
  const keys = [...finals.values()].flatMap((f) => f.question.contextRefs.map((r) => passageKey(r)));
  for (const key of new Set(keys)) {
    const [documentId, chunkIndex] = [
      key.slice(0, key.lastIndexOf(":")),
      Number(key.slice(key.lastIndexOf(":") + 1)),
    ];
    const [row] = await db.query<{ content: string; section_path: string }>(
      "select content, section_path from document_chunks where document_id = $1 and chunk_index = $2",
      [documentId, chunkIndex],
    );
    if (row) passages.set(key, { section: row.section_path, text: row.content });
  }
  const slotCount = finals.size + failed.size;
  totals.slots += slotCount;
  totals.empty += failed.size;
  const byModel = [...finals.values()].filter((f) => f.question.source === "llm").length;
  lines.push(
    `| ${section.id} ${section.title} | ${slotCount} | ${byModel} | ${finals.size - byModel} | ${failed.size} | ${model.prompts.length - before} |`,
  );
  for (const { slot, question: q } of finals.values()) {
    const asked = `${slot.type}/${slot.bloomLevel}`;
    levels[asked] = [...(levels[asked] ?? []), `${q.source === "llm" ? "model" : "offline"}:${q.bloomLevel}`];
    if (q.source === "llm") {
      totals.model++;
      if (q.validation.regenerated) totals.rewritten++;
      if (q.validation.flags.length) totals.warned++;
      for (const f of q.validation.flags) inc(warnings, f);
    } else {
      totals.offline++;
      inc(offlineWhy, q.validation.offlineReason ?? "(no reason on the card)");
    }
    rows.push(
      JSON.stringify({
        topic: `${section.id} ${section.title}`,
        filledBy: q.source === "llm" ? "model" : "offline",
        requested: { type: slot.type, level: slot.bloomLevel },
        question: q,
        passages: [...new Set(q.contextRefs.map((r) => passageKey(r)))].map((key) => ({
          key,
          ...(passages.get(key) ?? { section: "", text: "" }),
        })),
      }),
    );
  }
  for (const { slot, question: q } of finals.values()) {
    const body =
      q.type === "mcq"
        ? `${q.options.map((o, i) => `- ${"ABCD"[i]}. ${o}${i === q.correctIndex ? " ✔" : ""}`).join("\n")}\n\nExplanation: ${q.explanation}\n\nDistractor rationales:\n\n${q.distractorRationales.map((r) => `- ${r}`).join("\n")}`
        : `Model answer: ${q.suggestedAnswer}\n\nMarking scheme:\n\n${(q.markingScheme ?? []).map((p) => `- [${p.marks}] ${p.point}`).join("\n")}`;
    const cited = [...new Set(q.contextRefs.map((r) => passageKey(r)))].map(
      (key) =>
        `> ${passages.get(key)?.section ?? key}\n> ${(passages.get(key)?.text ?? "").replace(/\n+/g, "\n> ")}`,
    );
    reading.push(
      `### ${section.id} · asked ${slot.type}/${slot.bloomLevel} · ${q.type} · ${q.bloomLevel} · ${q.marks} mark(s) · by ${q.source === "llm" ? "the model" : "the offline generator"}\n\n${q.promptText}\n\n${body}\n\nCited passages:\n\n${cited.join("\n\n")}\n`,
    );
  }
  for (const { slot, reason } of failed.values())
    rows.push(
      JSON.stringify({
        topic: `${section.id} ${section.title}`,
        filledBy: "empty",
        requested: { type: slot.type, level: slot.bloomLevel },
        reason,
      }),
    );
  for (const p of model.prompts.slice(before))
    if (p.rewrite) refusals.push(`${section.id} ${p.type}/${p.level}: ${p.feedback.join(" | ")}`);
}

const pct = (n: number) => `${((100 * n) / Math.max(1, totals.slots)).toFixed(1)} %`;
console.log(
  "| section | slots | model | offline | empty | question prompts |\n|---|---:|---:|---:|---:|---:|",
);
for (const l of lines) console.log(l);
console.log("\n| measure | result |\n|---|---:|");
console.log(`| slots requested | ${totals.slots} |`);
console.log(`| filled by the model | ${totals.model} (${pct(totals.model)}) |`);
console.log(`| … after one rewrite | ${totals.rewritten} |`);
console.log(`| … with warnings on the card | ${totals.warned} |`);
console.log(`| filled offline | ${totals.offline} (${pct(totals.offline)}) |`);
for (const [why, n] of Object.entries(offlineWhy)) console.log(`| … ${why} | ${n} |`);
console.log(`| left empty | ${totals.empty} |`);
console.log(`| question prompts (incl. rewrites) | ${model.prompts.length} |`);
loop.disable();
console.log(
  `| event-loop delay p99 / max (ms) | ${(loop.percentile(99) / 1e6).toFixed(0)} / ${(loop.max / 1e6).toFixed(0)} |`,
);
console.log(
  `| prompts without a prepared answer | ${model.prompts.filter((p) => p.answered === "none").length} |`,
);
const createOk = (levels["short/Create"] ?? []).concat(
  levels["long/Create"] ?? [],
  levels["mcq/Create"] ?? [],
);
const longs = Object.entries(levels)
  .filter(([k]) => k.startsWith("long/"))
  .flatMap(([, v]) => v);
console.log(`| Create slots delivered (by / level) | ${createOk.join(", ") || "none"} |`);
console.log(`| long slots delivered (by / level) | ${longs.join(", ") || "none"} |`);
console.log("\nLevels delivered per requested slot (filled by:level):");
for (const [k, v] of Object.entries(levels).sort()) console.log(`- ${k}: ${v.join(", ")}`);
const refusedNotes = gateNotes.filter((n) => n.includes("refused"));
console.log(
  `\nThe gate's decisions on drafts (the card's note): ${refusedNotes.length} refusals, ${gateNotes.length - refusedNotes.length} passes with warnings (each asks for one rewrite; the better draft is kept):`,
);
for (const n of gateNotes) console.log(`- ${n}`);
if (!gateNotes.length) console.log("- none");
console.log("\nThe reasons the rewrite prompts carried (refusals and warnings):");
for (const r of refusals) console.log(`- ${r}`);
if (!refusals.length) console.log("- none");
console.log("\nWarnings on delivered model questions (flag: count):");
for (const [f, n] of Object.entries(warnings)) console.log(`- ${f}: ${n}`);
if (!Object.keys(warnings).length) console.log("- none");
console.log("\nSet warnings:");
for (const w of setWarnings) console.log(`- ${w}`);
if (!setWarnings.length) console.log("- none");
if (opts.out) writeFileSync(opts.out, `${rows.join("\n")}\n`);
if (opts.read) writeFileSync(opts.read, reading.join("\n---\n\n"));
await model.standIn.close();
process.exit(0);
