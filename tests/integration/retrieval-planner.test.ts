import path from "node:path";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as query } from "@/app/api/retrieval/query/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { setLanguageModelForProcess } from "@/lib/ai/providers";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import { loadFacets } from "@/lib/retrieval/facets";
import {
  forgetPhraseIndexes,
  scopeVocabulary,
  warmFacetScopes,
  warmScopePhrases,
} from "@/lib/retrieval/scope-vocabulary";
import { getStorage } from "@/lib/storage";
import { RetrievalQueryResponseSchema, type TRetrievalQueryResponse } from "@/schema/retrieval.schema";
import { failingModel, hangingModel, textModel } from "../support/mock-models";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";

const DEMO = path.join(import.meta.dirname, "../../supabase/seed/demo");
const BIOLOGY = { board: "OpenStax", grade: "11", subject: "Biology" };

let env: ITestEnv;
beforeAll(async () => {
  // A generous planner budget: which probes run must not depend on how busy the test machine is.
  env = await createTestEnv({ PAPERWISE_PLAN_BUDGET_MS: "60000" });
  const results = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.admin.id,
    inputs: [path.join(DEMO, "biology-2e"), path.join(DEMO, "physics")],
    defaults: { resourceType: "textbook", visibility: "shared" },
    maxBytes: 50 * 1024 * 1024,
  });
  expect(results.every((r) => !r.error)).toBe(true);
});
afterEach(() => setLanguageModelForProcess(undefined));
afterAll(async () => env.close());

async function ask(
  body: Record<string, unknown>,
): Promise<{ status: number; body: TRetrievalQueryResponse }> {
  const res = await query(
    makeRequest("POST", "/api/retrieval/query", { token: env.teacher.token, json: body }),
    {},
  );
  const json = await res.json();
  if (res.status === 200) RetrievalQueryResponseSchema.parse(json);
  return { status: res.status, body: json };
}

const probeSources = (b: TRetrievalQueryResponse, status = "used") =>
  b.plan.probes.filter((p) => p.status === status).map((p) => p.source);

/** The planner's call carries `<query>`; the reranker's carries passages. */
function planOrRerank(plan: (prompt: string) => string) {
  return (options: LanguageModelV3CallOptions) => {
    const prompt = JSON.stringify(options.prompt);
    if (prompt.includes("<query>")) return plan(prompt);
    const ids = [...prompt.matchAll(/passage id=\\+"(\d+)/g)].map((m) => Number(m[1]));
    return JSON.stringify({ scores: ids.map((id) => ({ id, score: 10 - Math.min(9, id) })) });
  };
}

const GOOD_PLAN = JSON.stringify({
  variants: ["light-dependent reactions in the thylakoid membrane", "photosystems absorbing light energy"],
  hypotheticalPassage:
    "In the light-dependent reactions, photosystems in the thylakoid membranes absorb light energy. Excited electrons pass along an electron transport chain, water is split to release oxygen, and the energy is stored in ATP and NADPH, which the Calvin cycle then uses to build sugars.",
});

describe("query planner through POST /api/retrieval/query", () => {
  it("reports its plan offline: chapter focus for exam questions, a hypothetical passage for explanations", async () => {
    const { status, body } = await ask({
      filters: BIOLOGY,
      query: "Which of the following structures is where the light-dependent reactions take place?",
    });
    expect(status).toBe(200);
    expect(body.plan.examStyle).toBe(true);
    expect(probeSources(body)).toEqual(["query"]);
    expect(body.plan.focus).toMatchObject({ kind: "chapter", chapterNumber: 8 });
    expect(body.items[0]!.chapterNumber).toBe(8);
    expect(body.debug.llmPlanMs).toBe(0);
    const concept = await ask({ filters: BIOLOGY, query: "Explain how plants turn light energy into sugar" });
    expect(concept.body.plan).toMatchObject({ strategy: "hyde", examStyle: false, focus: null });
    expect(probeSources(concept.body)).toEqual(["query", "hyde"]);
  });

  it("skips optional probes once the request is past its latency budget, and says so", async () => {
    const { retrieve } = await import("@/lib/retrieval/retrieve");
    const res = await retrieve(
      { db: env.db, embedder: getEmbedder(), model: null, llmTimeoutMs: 0, planBudgetMs: 0 },
      env.teacher.id,
      {
        filters: BIOLOGY,
        query: "Compare the cell wall and the plasma membrane",
        topK: 8,
        enableRerank: true,
      },
    );
    expect(res.items).toHaveLength(8);
    const skipped = res.plan.probes.filter((p) => p.status === "skipped");
    expect(skipped.map((p) => p.source)).toEqual(["sub-query", "sub-query"]);
    expect(skipped.every((p) => p.note === "latency budget spent")).toBe(true);
    expect(probeSources(res)).toEqual(["query"]);
  });

  it("planner: false is the single query as classified", async () => {
    const { body } = await ask({ filters: BIOLOGY, query: "Compare mitosis and meiosis", planner: false });
    expect(body.plan.strategy).toBe("single");
    expect(probeSources(body)).toEqual(["query"]);
  });

  it("decomposes a comparison and searches each option of a pasted MCQ", async () => {
    const cmp = await ask({ filters: BIOLOGY, query: "Compare the cell wall and the plasma membrane" });
    expect(cmp.body.plan.strategy).toBe("decompose");
    expect(probeSources(cmp.body).filter((s) => s === "sub-query")).toHaveLength(2);
    const mcq = await ask({
      filters: BIOLOGY,
      query:
        "Which organelle carries out photosynthesis? A) mitochondrion B) chloroplast C) ribosome D) vacuole",
    });
    expect(probeSources(mcq.body).filter((s) => s === "option")).toHaveLength(4);
    expect(mcq.body.items[0]!.chapterNumber).not.toBeNull();
  });

  it("reads a pasted, numbered numeric exam question by its quantities and finds its chapter", async () => {
    const PHYSICS = { board: "OpenStax", grade: "11", subject: "Physics" };
    const { status, body } = await ask({
      filters: PHYSICS,
      query:
        "Q4. A net force of 20 N acts on a 4 kg mass. What is its acceleration? A) 5 m/s2 B) 80 m/s2 C) 0.2 m/s2 D) 16 m/s2 (1 mark)",
    });
    expect(status).toBe(200);
    expect(body.refusal).toBeUndefined();
    expect(body.plan.examStyle).toBe(true);
    expect(body.plan.reasons.join(" ")).toMatch(
      /exam question \(numbering, marks, options.*numeric.*force.*mass.*acceleration/,
    );
    expect(body.plan.probes[0]!.text).not.toMatch(/\d|Q4|mark/);
    expect(body.plan.focus).toMatchObject({ kind: "chapter", chapterNumber: 4 });
    expect(body.items[0]!.chapterNumber).toBe(4);
  });

  it("searches the enhancer's variants the client sends, and validates them", async () => {
    const { body } = await ask({
      filters: BIOLOGY,
      query: "how plants make sugar",
      variants: ["photosynthesis Calvin cycle", "carbon fixation in the stroma"],
    });
    expect(probeSources(body).filter((s) => s === "client-variant")).toHaveLength(2);
    const bad = await ask({ filters: BIOLOGY, query: "osmosis", variants: ["a", "b", "c", "d"] });
    expect(bad.status).toBe(400);
  });

  it("with a language model: its phrasings and hypothetical passage become probes, inside one budget", async () => {
    setLanguageModelForProcess(textModel(planOrRerank(() => GOOD_PLAN)), 3000);
    const { body } = await ask({ filters: BIOLOGY, query: "How is light energy captured in plants?" });
    expect(probeSources(body).filter((s) => s === "llm-variant")).toHaveLength(2);
    expect(probeSources(body)).toContain("llm-hyde");
    expect(probeSources(body)).not.toContain("hyde");
    expect(body.debug.reranker).toBe("llm");
    expect(body.plan.fallbacks).toEqual([]);
  });

  it("a slow, failing or junk-answering model falls back to the offline plan and says so", async () => {
    const models = [
      hangingModel(),
      failingModel(),
      textModel(planOrRerank(() => "{not json")),
      textModel(
        planOrRerank(() =>
          JSON.stringify({
            variants: ["the French Revolution", "As an AI language model I cannot"],
            hypotheticalPassage: "No.",
          }),
        ),
      ),
    ];
    for (const model of models) {
      setLanguageModelForProcess(model, 400);
      const started = Date.now();
      const { status, body } = await ask({
        filters: BIOLOGY,
        query: "How is light energy captured in plants?",
      });
      expect(status).toBe(200);
      // One budget for the planner and the reranker: a hanging model costs at most the timeout.
      expect(Date.now() - started).toBeLessThan(3000);
      expect(body.items.length).toBe(8);
      expect(probeSources(body)).toContain("hyde");
      expect(probeSources(body)).not.toContain("llm-variant");
      expect(body.plan.fallbacks.join(" ")).toMatch(/language model/);
    }
  });

  it("a slow model spends the budget once: the planner's share, then the reranker the rest", async () => {
    let calls = 0;
    const slowPlanner = textModel(
      planOrRerank(() => {
        calls++;
        return GOOD_PLAN;
      }),
    );
    // `calls` counts planner answers that arrived; the abort must win.
    const original = slowPlanner.doGenerate.bind(slowPlanner);
    // A planner answer that takes 150 ms (and honours the abort signal, as providers do).
    slowPlanner.doGenerate = async (options) => {
      if (JSON.stringify(options.prompt).includes("<query>")) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 150);
          options.abortSignal?.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(options.abortSignal?.reason ?? new Error("aborted"));
          });
        });
      }
      return original(options);
    };
    setLanguageModelForProcess(slowPlanner, 300);
    const { body } = await ask({ filters: BIOLOGY, query: "How is light energy captured in plants?" });
    // 150 ms > the planner's 40 % of 300 ms: aborted, offline HyDE instead; the reranker still ran.
    expect(probeSources(body)).toContain("hyde");
    expect(["llm", "offline"]).toContain(body.debug.reranker);
    expect(calls).toBe(0);
  });
});

describe("refusal (issue 16: 'xylophone zebra quasar cryptocurrency' in Physics)", () => {
  it("answers items: [] with the reason, while real Physics queries keep their passages", async () => {
    const PHYSICS = { board: "OpenStax", grade: "11", subject: "Physics" };
    const { body } = await ask({ filters: PHYSICS, query: "xylophone zebra quasar cryptocurrency" });
    expect(body.items).toEqual([]);
    expect(body.refusal?.message).toMatch(/scope/);
    expect(body.session.turn.anchor).toBeUndefined();
    for (const q of [
      "Newton's second law of motion",
      "What is a force?",
      "the scientific method in physics",
    ]) {
      const real = await ask({ filters: PHYSICS, query: q });
      expect(real.body.refusal, q).toBeUndefined();
      expect(real.body.items.filter((i) => !i.weak).length, q).toBeGreaterThan(0);
    }
  });
});

describe("follow-ups across a builder session", () => {
  it("resolves 'more on X', 'not X', 'harder ones' and 'the next section' against earlier turns", async () => {
    const first = await ask({ filters: BIOLOGY, query: "photosynthesis" });
    expect(first.body.session).toMatchObject({ followUp: false });
    const t1 = first.body.session.turn;
    expect(t1.anchor?.chapterNumber).toBe(8);

    const more = await ask({
      filters: BIOLOGY,
      query: "more on the light reactions",
      session: { turns: [t1] },
    });
    expect(more.body.session.followUp).toBe(true);
    expect(more.body.session.resolvedQuery).toMatch(/light reactions.*photosynthesis/);
    expect(more.body.items[0]!.sectionPath).toMatch(/8\.2/);
    expect(probeSources(more.body)).toContain("session");

    const turns = [t1, more.body.session.turn];
    const not = await ask({ filters: BIOLOGY, query: "not the calvin cycle", session: { turns } });
    expect(not.body.session.excluded).toEqual(["calvin cycle"]);
    expect(not.body.session.excludedCount).toBeGreaterThan(0);
    expect(not.body.items.some((i) => /Calvin Cycle/.test(i.sectionPath ?? ""))).toBe(false);

    const harder = await ask({
      filters: BIOLOGY,
      query: "harder ones",
      bloomTargets: ["Understand"],
      session: { turns },
    });
    expect(harder.body.session.bloomTargets).toEqual(["Apply"]);
    expect(harder.body.debug.bloomHintApplied).toBe(true);

    const next = await ask({ filters: BIOLOGY, query: "the next section", session: { turns } });
    expect(next.body.session.navigation).toBe("next-section");
    expect(next.body.plan.focus).toMatchObject({ kind: "section" });
    expect(next.body.items[0]!.sectionPath).toMatch(/8\.3/);
  });

  it("'the second one', 'the last two' and 'not the first' refer to the previous list as shown", async () => {
    const first = await ask({ filters: BIOLOGY, query: "photosynthesis" });
    const t1 = first.body.session.turn;
    // The turn keeps the list in the order shown: by relevance.
    const shown = [...first.body.items].sort((a, b) => b.relevance - a.relevance);
    expect(t1.results?.map((r: { chunkIndex: number }) => r.chunkIndex)).toEqual(
      shown.map((i) => i.chunkIndex),
    );
    const heading = (p: string) => (p.split(" > ").at(-1) ?? "").replace(/^[\d.]+\s*/, "");

    const second = await ask({ filters: BIOLOGY, query: "more on the second one", session: { turns: [t1] } });
    expect(second.body.session.followUp).toBe(true);
    expect(second.body.session.resolvedQuery).toContain(heading(shown[1]!.sectionPath ?? ""));
    expect(second.body.session.resolvedQuery).not.toMatch(/second one/);
    expect(second.body.items[0]!.sectionPath).toBe(shown[1]!.sectionPath);

    const lastTwo = await ask({ filters: BIOLOGY, query: "the last two", session: { turns: [t1] } });
    for (const i of shown.slice(-2))
      expect(lastTwo.body.session.resolvedQuery).toContain(heading(i.sectionPath ?? ""));

    const notFirst = await ask({ filters: BIOLOGY, query: "not the first", session: { turns: [t1] } });
    expect(notFirst.body.session.excluded).toEqual([heading(shown[0]!.sectionPath ?? "")]);
    expect(notFirst.body.items.some((i) => i.sectionPath === shown[0]!.sectionPath)).toBe(false);
  });

  it("rejects a malformed session with field paths", async () => {
    const { status, body } = await ask({
      filters: BIOLOGY,
      query: "harder ones",
      session: { turns: [{ query: "x", resolvedQuery: "x", topic: "x", anchor: { documentId: "nope" } }] },
    });
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toMatch(/session/);
  });
});

describe("the refusal's phrase evidence (scope-vocabulary.ts scopePhraseLookup)", () => {
  const scopePhraseLookup = async (_db: unknown, userId: string, filters: typeof BIOLOGY, query: string) =>
    (
      await scopeVocabulary(env.db, userId, filters, ["force"], {
        meaning: false,
        phrasesOf: query,
        phraseWaitMs: 60_000,
      })
    ).phrases ?? [];
  it("counts a phrase's passages in the scope and in the other subject, not across an option list", async () => {
    const PHYSICS = { board: "OpenStax", grade: "11", subject: "Physics" };
    const physics = await scopePhraseLookup(
      env.db,
      env.teacher.id,
      PHYSICS,
      "How does the normal force change? photosynthesis light dependent reactions",
    );
    const byPhrase = new Map(physics.map((p) => [p.phrase, p]));
    expect(byPhrase.get("normal force")!.df).toBeGreaterThan(0);
    // Biology's "light-dependent reactions": none in Physics, some in the background (the other subject).
    expect(byPhrase.get("light dependent")).toMatchObject({ df: 0 });
    expect(byPhrase.get("light dependent")!.bgDf).toBeGreaterThan(0);
    const biology = await scopePhraseLookup(
      env.db,
      env.teacher.id,
      BIOLOGY,
      "Which is true of light dependent reactions? A) occur in stroma B) produce oxygen",
    );
    expect(biology.find((p) => p.phrase === "light dependent")!.df).toBeGreaterThan(0);
    expect(biology.map((p) => p.phrase)).not.toContain("stroma produce");
  });

  it("warms the scopes' phrase indexes when the Board/Class/Subject choices load: the first query has the evidence at once", async () => {
    const PHYSICS = { board: "OpenStax", grade: "11", subject: "Physics" };
    const firstQuery = () =>
      scopeVocabulary(env.db, env.teacher.id, PHYSICS, ["normal", "force"], {
        meaning: false,
        phrasesOf: "How does the normal force change?",
        phraseWaitMs: 0,
      });
    // As after a restart: no index cached. (Whether a query with no wait then goes without the
    // evidence depends on how fast the small test corpus is read, so it is not asserted.)
    forgetPhraseIndexes();
    const boards = await loadFacets(env.db, env.teacher.id);
    // Both of the user's scopes (Biology, Physics) built, one after the other.
    expect(await warmFacetScopes(env.db, env.teacher.id, boards)).toBe(2);
    const warm = await firstQuery();
    expect(warm.phrases?.find((p) => p.phrase === "normal force")?.df).toBeGreaterThan(0);
    // Biology was warmed too (the user's two scopes).
    const biology = await scopeVocabulary(env.db, env.teacher.id, BIOLOGY, ["light"], {
      meaning: false,
      phrasesOf: "light dependent reactions",
      phraseWaitMs: 0,
    });
    expect(biology.phrases?.find((p) => p.phrase === "light dependent")?.df).toBeGreaterThan(0);
  });

  it("the page-load warm-up never evicts: with the cache full it builds nothing, a retrieval's own scope still goes in", async () => {
    forgetPhraseIndexes();
    // Eight other cache entries (the limit): both subjects under four resource-type filters.
    const types = ["textbook", ["textbook", "pyq"], ["textbook", "notes"], ["textbook", "other"]] as const;
    for (const subject of ["Biology", "Physics"])
      for (const resourceType of types)
        expect(
          await warmScopePhrases(env.db, env.teacher.id, {
            board: "OpenStax",
            grade: "11",
            subject,
            resourceType: typeof resourceType === "string" ? resourceType : [...resourceType],
          }),
        ).toBe(true);
    const boards = await loadFacets(env.db, env.teacher.id);
    expect(await warmFacetScopes(env.db, env.teacher.id, boards)).toBe(0);
    // A retrieval's scope (evict: true, the default) takes the least recently used entry's place.
    expect(await warmScopePhrases(env.db, env.teacher.id, BIOLOGY)).toBe(true);
    forgetPhraseIndexes();
  });
});
