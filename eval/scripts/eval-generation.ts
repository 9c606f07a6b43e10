/**
 * npm run eval:generation -- [--corpus ../shared/eval/corpus/biology-2e] [--topics <file>] [--limit N]
 *                            [--every N] [--samples out.jsonl] [--read out.md] [--use-section] [--json]
 *
 * What can fail, measured:
 *  1. Generation. For each topic (a section; default every non-introduction section, or every
 *     N-th with --every), context is retrieved for the section title inside its chapter, and the
 *     offline generator writes the set the quality finding used: 4 MCQ + 2 short + 1 long over all
 *     six Bloom levels. Reported: slots filled and left empty (and why), the quality gate's
 *     rejections by flag, key positions A–D, copy-paste rate, structural checks, the gate's Bloom
 *     reading against the label, timings. --samples writes every question with the passages it
 *     cites (JSONL) and --read the same as Markdown, for a careful reader to grade by
 *     ../shared/eval/QUESTION-RUBRIC.md (the figures a reader gives are the quality figures).
 *  2. The gate's false positives: the 804 end-of-section MCQs written by the book's authors, each
 *     with its own section as context, through the gate's content checks (they have no rationales
 *     or citations to check). Nearly all should pass.
 *  3. Bloom classifiers against the 804 human labels (heuristic labels, 90.7 % Remember): per-level
 *     recall beside the majority-class baseline, for the wording classifier and the gate's demand
 *     reading.
 */

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Command } from "commander";
import { passageKey } from "@/types/generation.types";
import { selectPassages } from "./support/eval-corpus";
import { openOfflineWorkspace } from "./support/workspace";

const opts = new Command()
  .option("--corpus <dir>", "corpus folder with manifest.json", "../shared/eval/corpus/biology-2e")
  .option("--topics <file>", "section ids, one per line (default: all sections)")
  .option("--questions <file>", "human MCQs with Bloom labels", "../shared/eval/questions/biology-2e.jsonl")
  .option("--limit <n>", "first N topics")
  .option("--every <n>", "every N-th topic (a spread sample)")
  .option("--offset <n>", "start of the --every spread", "0")
  .option("--data-dir <dir>", "embedded database cache", ".bench/eval-generation")
  .option("--samples <file>", "write every generated question with its cited passages (JSONL)")
  .option("--read <file>", "write every generated question with its cited passages (Markdown)")
  .option("--no-authors", "skip the author-MCQ false-positive check")
  .option("--use-section", "let slots the selection cannot fill draw on the rest of its section")
  .option(
    "--pool",
    "Remember MCQ options also from the subject's other documents (loadScope's option pool; off in the app)",
  )
  .option("--why", "per empty slot, each form's material, candidates built and the gate's first refusal")
  .option("--json", "print JSON")
  .parse()
  .opts<{
    samples?: string;
    read?: string;
    corpus: string;
    topics?: string;
    questions: string;
    limit?: string;
    every?: string;
    offset: string;
    dataDir: string;
    authors: boolean;
    pool?: boolean;
    useSection?: boolean;
    why?: boolean;
    json?: boolean;
  }>();

const workspace = await openOfflineWorkspace(
  path.resolve(opts.dataDir, path.basename(path.resolve(opts.corpus))),
);
const { runGeneration } = await import("@/lib/generation/generate");
const { classifyBloom } = await import("@/lib/generation/bloom-classifier");
const { createGateContext, gateQuestion, estimateDemand, QUALITY_FLAGS } = await import(
  "@/lib/generation/gate"
);
const { coverage, stemSet } = await import("@/lib/generation/gate/text");
const { passageSentences, mainSections } = await import("@/lib/generation/offline/knowledge/sentences");
const { loadScope } = await import("@/lib/generation/store");
const { createOfflineGenerator } = await import("@/lib/generation/offline/generator");
const { formsFor } = await import("@/lib/generation/offline/forms");
const { GenerationRequestSchema } = await import("@/schema/generation.schema");
const { BLOOM_LEVELS } = await import("@/types/bloom.types");
type TQuestion = import("@/types/generation.types").TQuestion;
type EBloomLevel = import("@/types/bloom.types").EBloomLevel;

interface IManifest {
  book: string;
  board: string;
  grade: string;
  subject: string;
  chapters: { chapterNumber: number; sections: { id: string; number: string; title: string }[] }[];
}
const manifest = JSON.parse(await readFile(path.join(opts.corpus, "manifest.json"), "utf8")) as IManifest;
const allSections = manifest.chapters.flatMap((c) =>
  c.sections.filter((s) => !s.number.endsWith(".0")).map((s) => ({ ...s, chapter: c.chapterNumber })),
);
const wanted = opts.topics
  ? new Set((await readFile(opts.topics, "utf8")).split(/\s+/).filter(Boolean))
  : null;
const every = Number(opts.every ?? 1);
const topics = allSections
  .filter((s) => !wanted || wanted.has(s.id))
  .filter((_, i) => i % every === Number(opts.offset) % every)
  .slice(0, opts.limit ? Number(opts.limit) : undefined);

const { db, userId } = workspace;
await workspace.ingest([opts.corpus]);
const filters = { board: manifest.board, grade: String(manifest.grade), subject: manifest.subject };

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const inc = <K extends string>(m: Partial<Record<K, number>>, k: K, n = 1) => {
  m[k] = (m[k] ?? 0) + n;
};

// ---- 1. Generation ------------------------------------------------------------------------
const totals = {
  sets: 0,
  requested: 0,
  generated: 0,
  citationsOk: 0,
  schemaOk: 0,
  distinctOptions: 0,
  mcqs: 0,
  duplicateFacts: 0,
  written: 0,
  copied: 0,
  substituted: 0,
  fromSection: 0,
  demandAgrees: 0,
  demandWithinOne: 0,
};
const emptyBy: Record<string, number> = {};
const emptyWhy: Record<string, number> = {};
const rejections: Partial<Record<string, number>> = {};
const keyAt = [0, 0, 0, 0];
const byTypeLevel: Record<string, number> = {};
const firstMs: number[] = [];
const setMs: number[] = [];
/** The planning dry run of each set (slot/dry-run.ts), part of the time to the first question. */
const dryRunMs: number[] = [];
/** Loading the chapter and the subject's option pool (`loadScope`), before the set starts. */
const scopeMs: number[] = [];
const samples: string[] = [];
const reading: string[] = [];
const levelsPerSet: number[] = [];
const labelledPerSet: number[] = [];
const labels: Partial<Record<string, number>> = {};
/** --why: per form, over the empty slots it could have filled: slots, with material, built, refused by flag. */
const whyByForm: Record<
  string,
  {
    slots: number;
    material: number;
    built: number;
    flags: Record<string, number>;
    steps: Record<string, number>;
  }
> = {};

const normKey = (q: TQuestion) =>
  q.type === "mcq" ? `${q.type}:${(q.options[q.correctIndex] ?? "").toLowerCase().trim()}` : "";

for (const topic of topics) {
  const { found, chunks } = await selectPassages(workspace, filters, topic);
  const scopeStarted = performance.now();
  const scope = await loadScope(
    db,
    userId,
    chunks.map((c) => c.documentId),
    400,
    // The app waits at most POOL_WAIT_MS for a cold subject's pool (that set goes without it); the
    // eval waits for it, so every set is measured as a warm server writes it.
    { pool: !!opts.pool, poolWaitMs: 120_000 },
  );
  scopeMs.push(performance.now() - scopeStarted);
  const request = GenerationRequestSchema.parse({
    filters,
    context: found.items.map((i) => ({ documentId: i.documentId, chunkIndex: i.chunkIndex })),
    blueprint: {
      items: [
        { type: "mcq", count: 4 },
        { type: "short", count: 2, marks: 3 },
        { type: "long", count: 1, marks: 5 },
      ],
      bloomTargets: [...BLOOM_LEVELS],
    },
    seed: totals.sets + 1,
    topic: topic.title,
    useSection: opts.useSection === true,
  });
  const started = performance.now();
  let first = 0;
  const result = await runGeneration(
    { model: null, timeoutMs: 0, scope },
    chunks,
    request,
    {
      question: (_slot, update) => {
        if (update.status === "final" && first === 0) first = performance.now() - started;
      },
      progress: () => undefined,
      error: () => undefined,
    },
    (i) => `${topic.id}-${i}`,
  );
  setMs.push(performance.now() - started);
  if (result.dryRunMs !== undefined) dryRunMs.push(result.dryRunMs);
  firstMs.push(first);
  totals.sets++;
  // Levels delivered at the asked level (a labelled substitute does not count).
  const asked = new Set(
    result.questions.filter((q) => !q.validation.substitutedFor).map((q) => q.bloomLevel),
  );
  levelsPerSet.push(asked.size);
  labelledPerSet.push(new Set(result.questions.map((q) => q.bloomLevel)).size);
  for (const q of result.questions) inc(labels, q.bloomLevel);
  totals.requested += result.slots.length;
  totals.generated += result.questions.length;
  for (const [flag, n] of Object.entries(result.rejections)) inc(rejections, flag, n ?? 0);
  for (const gap of result.gaps) {
    inc(emptyBy, `${gap.type}/${gap.level}`);
    inc(
      emptyWhy,
      gap.reason.includes("refused by the quality gate")
        ? "gate refused every draft"
        : gap.reason.includes("hold no")
          ? "no material for the level"
          : "no draft completed",
    );
  }
  if (opts.why && result.gaps.length > 0) {
    // Re-proposes each empty slot's candidates from a fresh generator on the same selection
    // (nothing of the set accepted yet), gating each as run.ts does: why the slot stayed empty.
    const gen = createOfflineGenerator(chunks, request.seed ?? 1, scope, mainSections(chunks, topic.title));
    const ctx = createGateContext(chunks, { selected: chunks.map((c) => passageKey(c)) });
    for (const gap of result.gaps) {
      const slot = result.slots.find((s) => s.id === gap.slotId);
      if (!slot) continue;
      for (const form of formsFor(slot.type, slot.bloomLevel)) {
        const id = `${slot.type}/${slot.bloomLevel} ${form.id}`;
        const row = whyByForm[id] ?? { slots: 0, material: 0, built: 0, flags: {}, steps: {} };
        whyByForm[id] = row;
        row.slots++;
        if (form.available(gen.kb) > 0) row.material++;
        let n = 0;
        const trace = (step: string) => inc(row.steps, step);
        for (const q of form.build({
          kb: gen.kb,
          slot,
          random: () => 0.5,
          keyAt: 0,
          used: new Set(),
          trace,
        })) {
          if (n++ >= 40) break;
          row.built++;
          const verdict = gateQuestion(q, slot.bloomLevel, ctx, { accepted: [] });
          const first = verdict.findings.find((f) => f.severity === "reject");
          inc(row.flags, verdict.passed ? "passed" : (first?.flag ?? "other"));
        }
      }
    }
  }
  // Independent structural checks (not the gate's code).
  const selected = new Set(chunks.map((c) => passageKey(c)));
  const text = new Map(result.passages.map((c) => [passageKey(c), c.content]));
  const sentences = result.passages.flatMap((c) => passageSentences(c.content).map((s) => stemSet(s)));
  const gateCtx = createGateContext(result.passages);
  const seen = new Set<string>();
  for (const q of result.questions) {
    inc(byTypeLevel, `${q.type}/${q.bloomLevel}`);
    if (q.validation.substitutedFor) totals.substituted++;
    if (q.contextRefs.some((r) => !selected.has(passageKey(r)))) totals.fromSection++;
    if (q.contextRefs.length > 0 && q.contextRefs.every((r) => text.has(passageKey(r)))) totals.citationsOk++;
    // The same MCQ key, or every cited sentence already the basis of an earlier question.
    const k = normKey(q);
    const quotes = q.contextRefs.map((r) => r.quote);
    if (
      (k && !/\b(?:both|all|none)\b/i.test(k) && seen.has(k)) ||
      (quotes.length > 0 && quotes.every((x) => seen.has(x)))
    )
      totals.duplicateFacts++;
    if (k) seen.add(k);
    for (const x of quotes) seen.add(x);
    if (q.type === "mcq") {
      totals.mcqs++;
      keyAt[q.correctIndex] = (keyAt[q.correctIndex] ?? 0) + 1;
      if (new Set(q.options.map((o) => o.trim().toLowerCase())).size === 4) totals.distinctOptions++;
      if (
        q.options.length === 4 &&
        q.correctIndex >= 0 &&
        q.correctIndex < 4 &&
        q.distractorRationales.length === 3
      )
        totals.schemaOk++;
    } else {
      totals.written++;
      const answer = stemSet(q.suggestedAnswer);
      if (sentences.some((s) => coverage(answer, s) >= 0.85 && coverage(s, answer) >= 0.85)) totals.copied++;
      const scheme = q.type === "long" ? q.markingScheme : (q.markingScheme ?? []);
      if (scheme.length > 0 && scheme.reduce((a, p) => a + p.marks, 0) === q.marks) totals.schemaOk++;
    }
    const demand = estimateDemand(q, gateCtx);
    if (demand === q.bloomLevel) totals.demandAgrees++;
    if (Math.abs(BLOOM_LEVELS.indexOf(demand) - BLOOM_LEVELS.indexOf(q.bloomLevel)) <= 1)
      totals.demandWithinOne++;
    const cited = [...new Set(q.contextRefs.map((r) => passageKey(r)))].map((key) => ({
      key,
      section: result.passages.find((c) => passageKey(c) === key)?.sectionPath ?? "",
      text: text.get(key) ?? "",
    }));
    if (opts.samples)
      samples.push(JSON.stringify({ topic: `${topic.id} ${topic.title}`, question: q, passages: cited }));
    if (opts.read) {
      const body =
        q.type === "mcq"
          ? q.options.map((o, i) => `   ${"ABCD"[i]}. ${o}${i === q.correctIndex ? "  ✔" : ""}`).join("\n") +
            `\n   Explanation: ${q.explanation}\n${q.distractorRationales.map((r) => `   - ${r}`).join("\n")}`
          : `   Model answer: ${q.suggestedAnswer}\n${(q.type === "long" ? q.markingScheme : (q.markingScheme ?? [])).map((p) => `   - [${p.marks}] ${p.point}`).join("\n")}`;
      reading.push(
        `### ${q.id} · ${q.type} · ${q.bloomLevel}${q.validation.substitutedFor ? ` (asked ${q.validation.substitutedFor})` : ""} · ${q.marks} mark(s) · topic ${topic.id} ${topic.title}\n\n${q.promptText}\n\n${body}\n\nCited passages:\n${cited.map((c) => `> [${c.key.slice(-12)}] ${c.section}\n> ${c.text.replace(/\n+/g, "\n> ")}`).join("\n\n")}\n`,
      );
    }
  }
  for (const gap of result.gaps)
    reading.push(
      `### EMPTY ${gap.slotId} · ${gap.type} · ${gap.level} · topic ${topic.id}\n\n${gap.reason}\n`,
    );
}
if (opts.samples) await writeFile(opts.samples, `${samples.join("\n")}\n`);
if (opts.read) await writeFile(opts.read, reading.join("\n---\n\n"));

// ---- 2. False positives on the authors' MCQs -------------------------------------------------
interface IHuman {
  id: string;
  sectionId: string;
  stem: string;
  options: string[];
  correctIndex: number | null;
  needsFigure: boolean;
  bloom: EBloomLevel;
}
const human = (await readFile(opts.questions, "utf8"))
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as IHuman);
const authors = { checked: 0, passed: 0, flags: {} as Partial<Record<string, number>> };
const demandVsLabel = new Map<EBloomLevel, { n: number; wording: number; demand: number }>();
if (opts.authors) {
  const rows = await db.query<{
    document_id: string;
    chunk_index: number;
    content: string;
    section_path: string;
    title: string;
  }>(
    "select c.document_id, c.chunk_index, c.content, c.section_path, d.title from document_chunks c join documents d on d.id = c.document_id where d.subject = $1 and d.board = $2",
    [manifest.subject, manifest.board],
  );
  const bySection = new Map<string, typeof rows>();
  for (const r of rows) {
    const m = / > (\d+\.\d+) /.exec(` > ${r.section_path} `);
    if (!m) continue;
    const list = bySection.get(m[1]!) ?? [];
    list.push(r);
    bySection.set(m[1]!, list);
  }
  for (const h of human) {
    if (h.correctIndex === null || h.needsFigure) continue;
    const section = bySection.get(h.sectionId.split(":")[1] ?? "") ?? [];
    if (section.length === 0) continue;
    const chunks = section.map((r) => ({
      documentId: r.document_id,
      chunkIndex: r.chunk_index,
      content: r.content,
      title: r.title,
      sectionPath: r.section_path,
    }));
    const ctx = createGateContext(chunks);
    const q: TQuestion = {
      id: h.id,
      type: "mcq",
      bloomLevel: h.bloom,
      promptText: h.stem,
      marks: 1,
      difficulty: "medium",
      options: h.options,
      correctIndex: h.correctIndex,
      explanation: "",
      distractorRationales: [],
      contextRefs: chunks.map((c) => ({
        documentId: c.documentId,
        chunkIndex: c.chunkIndex,
        title: c.title,
        quote: passageSentences(c.content)[0] ?? "",
      })),
      validation: { citationsOk: true, supported: true, bloomAgreed: true, regenerated: false, flags: [] },
      source: "offline",
    };
    const verdict = gateQuestion(
      q,
      "Remember",
      ctx,
      { accepted: [] },
      {
        skip: ["schema", "citation", "generic_rationale", "duplicate_fact", "off_topic", "bloom_mismatch"],
      },
    );
    authors.checked++;
    if (verdict.passed) authors.passed++;
    for (const f of verdict.findings) if (f.severity === "reject") inc(authors.flags, f.flag);
    const row = demandVsLabel.get(h.bloom) ?? { n: 0, wording: 0, demand: 0 };
    row.n++;
    if (classifyBloom(h.stem) === h.bloom) row.wording++;
    if (estimateDemand(q, ctx) === h.bloom) row.demand++;
    demandVsLabel.set(h.bloom, row);
  }
}

// ---- Report ----------------------------------------------------------------------------------
const quant = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const g = totals.generated || 1;
const labelled = [...demandVsLabel.values()].reduce((a, r) => a + r.n, 0) || 1;
const majority = Math.max(0, ...[...demandVsLabel.values()].map((r) => r.n)) / labelled;
const summary = {
  sets: totals.sets,
  requested: totals.requested,
  generated: totals.generated,
  emptySlots: totals.requested - totals.generated,
  substituted: totals.substituted,
  citingOtherPassagesOfTheSection: totals.fromSection,
  emptyRate: (totals.requested - totals.generated) / Math.max(1, totals.requested),
  emptyByTypeLevel: emptyBy,
  emptyWhy,
  gateRejectionsByFlag: Object.fromEntries(
    QUALITY_FLAGS.filter((f) => rejections[f]).map((f) => [f, rejections[f]]),
  ),
  keyPositions: { A: keyAt[0], B: keyAt[1], C: keyAt[2], D: keyAt[3] },
  copyPasteRate: totals.copied / Math.max(1, totals.written),
  validCitations: totals.citationsOk / g,
  schemaOk: totals.schemaOk / g,
  distinctOptions: totals.distinctOptions / Math.max(1, totals.mcqs),
  duplicateFacts: totals.duplicateFacts,
  gateDemandAgreesWithLabel: totals.demandAgrees / g,
  gateDemandWithinOneLevel: totals.demandWithinOne / g,
  byTypeLevel,
  firstQuestionMsP50: quant(firstMs, 0.5),
  firstQuestionMsP95: quant(firstMs, 0.95),
  dryRunMsP50: quant(dryRunMs, 0.5),
  dryRunMsP95: quant(dryRunMs, 0.95),
  scopeMsP50: quant(scopeMs, 0.5),
  scopeMsP95: quant(scopeMs, 0.95),
  scopeMsMax: Math.max(0, ...scopeMs),
  setMsP50: quant(setMs, 0.5),
  setMsP95: quant(setMs, 0.95),
  authorMcqs: {
    checked: authors.checked,
    passRate: authors.passed / Math.max(1, authors.checked),
    rejectionsByFlag: authors.flags,
  },
  bloomVsHumanLabels: {
    majorityBaseline: majority,
    wordingClassifier: [...demandVsLabel.values()].reduce((a, r) => a + r.wording, 0) / labelled,
    gateDemand: [...demandVsLabel.values()].reduce((a, r) => a + r.demand, 0) / labelled,
    perLevel: Object.fromEntries(
      BLOOM_LEVELS.filter((l) => demandVsLabel.has(l)).map((l) => {
        const r = demandVsLabel.get(l)!;
        return [l, { n: r.n, wordingRecall: r.wording / r.n, demandRecall: r.demand / r.n }];
      }),
    ),
  },
};
if (opts.json) console.log(JSON.stringify(summary, null, 2));
else {
  console.log(
    `\n## Offline generator on ${manifest.book}: ${totals.sets} sections × (4 MCQ + 2 short + 1 long, six levels)`,
  );
  console.log("| measure | result |\n|---|---:|");
  console.log(`| slots filled / requested | ${totals.generated} / ${totals.requested} |`);
  console.log(`| … at the nearest supported level, labelled as such | ${totals.substituted} |`);
  console.log(
    `| slots left empty (with the reason shown) | ${summary.emptySlots} (${pct(summary.emptyRate)}) |`,
  );
  console.log(
    `| empty, by type/level | ${
      Object.entries(emptyBy)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "–"
    } |`,
  );
  console.log(
    `| empty, why | ${
      Object.entries(emptyWhy)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "–"
    } |`,
  );
  console.log(
    `| candidates refused by the gate, by flag | ${
      Object.entries(summary.gateRejectionsByFlag)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "–"
    } |`,
  );
  console.log(
    `| labels of filled questions | ${BLOOM_LEVELS.filter((l) => labels[l])
      .map((l) => `${l} ${labels[l]}`)
      .join(", ")} |`,
  );
  console.log(
    `| distinct levels at the asked level per set (mean); sets with ≥ 5 of 6 | ${(
      levelsPerSet.reduce((a, b) => a + b, 0) / Math.max(1, levelsPerSet.length)
    ).toFixed(2)}; ${levelsPerSet.filter((n) => n >= 5).length} of ${levelsPerSet.length} |`,
  );
  console.log(
    `| distinct labelled levels per set, substitutes included (mean); sets with ≥ 5 | ${(
      labelledPerSet.reduce((a, b) => a + b, 0) / Math.max(1, labelledPerSet.length)
    ).toFixed(2)}; ${labelledPerSet.filter((n) => n >= 5).length} of ${labelledPerSet.length} |`,
  );
  console.log(`| MCQ key positions A/B/C/D | ${keyAt.join(" / ")} |`);
  console.log(`| written answers copying one passage sentence | ${pct(summary.copyPasteRate)} |`);
  console.log(`| questions citing other passages of the same section | ${totals.fromSection} |`);
  console.log(`| citations to the selection or its section | ${pct(summary.validCitations)} |`);
  console.log(
    `| schema complete (4 options + key + 3 rationales; schemes add up) | ${pct(summary.schemaOk)} |`,
  );
  console.log(`| MCQs with four distinct options | ${pct(summary.distinctOptions)} |`);
  console.log(`| same fact asked twice in a set | ${summary.duplicateFacts} |`);
  console.log(
    `| gate's demand reading = label (within one level) | ${pct(summary.gateDemandAgreesWithLabel)} (${pct(summary.gateDemandWithinOneLevel)}) |`,
  );
  console.log(
    `| first question / whole set p50 (p95) | ${summary.firstQuestionMsP50.toFixed(1)} ms / ${summary.setMsP50.toFixed(1)} (${summary.setMsP95.toFixed(1)}) ms |`,
  );
  console.log(
    `| first question p95; planning dry run p50 (p95) | ${summary.firstQuestionMsP95.toFixed(1)} ms; ${summary.dryRunMsP50.toFixed(1)} (${summary.dryRunMsP95.toFixed(1)}) ms |`,
  );
  console.log(
    `| scope and option pool load p50 (p95; max) | ${summary.scopeMsP50.toFixed(1)} (${summary.scopeMsP95.toFixed(1)}; ${summary.scopeMsMax.toFixed(1)}) ms |`,
  );
  if (opts.why) {
    console.log("\n## Why slots stayed empty, per form (fresh generator, nothing accepted yet)");
    console.log(
      "| slot form | empty slots | with material | candidates | first refusal (or passed) | steps given up at (times) |\n|---|---:|---:|---:|---|---|",
    );
    for (const [k, r] of Object.entries(whyByForm).sort())
      console.log(
        `| ${k} | ${r.slots} | ${r.material} | ${r.built} | ${
          Object.entries(r.flags)
            .map(([f, n]) => `${f} ${n}`)
            .join(", ") || "–"
        } | ${
          Object.entries(r.steps)
            .map(([s, n]) => `${s} ${n}`)
            .join("; ") || "–"
        } |`,
      );
  }
  if (opts.authors) {
    console.log(`\n## Gate on the ${authors.checked} author-written MCQs (own section as context)`);
    console.log(
      `pass rate ${pct(summary.authorMcqs.passRate)}; refusals by flag: ${
        Object.entries(authors.flags)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ") || "–"
      }`,
    );
    console.log(
      `\n## Bloom readers vs the human labels (heuristic; majority-class baseline ${pct(majority)})`,
    );
    console.log("| level | n | wording classifier recall | gate demand recall |\n|---|---:|---:|---:|");
    for (const [l, r] of Object.entries(summary.bloomVsHumanLabels.perLevel))
      console.log(`| ${l} | ${r.n} | ${pct(r.wordingRecall)} | ${pct(r.demandRecall)} |`);
    console.log(
      `| all | ${labelled} | ${pct(summary.bloomVsHumanLabels.wordingClassifier)} | ${pct(summary.bloomVsHumanLabels.gateDemand)} |`,
    );
  }
}
await db.close();
