import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as enhance } from "@/app/api/retrieval/enhance-query/route";
import { GET as facets } from "@/app/api/retrieval/facets/route";
import { POST as query } from "@/app/api/retrieval/query/route";
import { setLanguageModelForProcess } from "@/lib/ai/providers";
import { RetrievalQueryResponseSchema } from "@/schema/retrieval.schema";
import { BIOLOGY, seedDemoWithPrivateNotes } from "../support/demo-data";
import { failingModel, hangingModel, textModel } from "../support/mock-models";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";

const FILTERS = BIOLOGY;

let env: ITestEnv;
beforeAll(async () => {
  env = await createTestEnv();
  await seedDemoWithPrivateNotes(env);
});
afterAll(async () => {
  setLanguageModelForProcess(undefined);
  await env.close();
});

async function ask(body: unknown, token = env.teacher.token) {
  const res = await query(makeRequest("POST", "/api/retrieval/query", { token, json: body }), {});
  return { status: res.status, body: await res.json(), headers: res.headers };
}

describe("POST /api/retrieval/query", () => {
  it("returns the documented contract with defaults (topK 8, rerank on, classifier α)", async () => {
    const { status, body } = await ask({ filters: FILTERS, query: "What is the fluid mosaic model?" });
    expect(status).toBe(200);
    expect(() => RetrievalQueryResponseSchema.parse(body)).not.toThrow();
    expect(body.items).toHaveLength(8);
    expect(body.classification.type).toBe("lookup");
    expect(body.classification.alphaSource).toBe("classifier");
    expect(body.debug.reranker).toBe("offline");
    expect(body.items[0].sectionPath).toMatch(/5\.1/);
    // The top `rerankFanout` candidates are reranked; smoothing and the section spread may lift a
    // passage from the wider pool, which then carries its fused score only.
    expect(typeof body.items[0].rerankScore).toBe("number");
    for (const item of body.items) {
      // Storage keys stay on the server; "View source" goes by document id.
      expect(item).not.toHaveProperty("bucket");
      expect(item).not.toHaveProperty("path");
      expect(item.score).toBe(item.rerankScore ?? item.fusedScore);
    }
    expect(body.confidence).toBeGreaterThan(0);
  });

  it("an explicit alpha wins over the classifier", async () => {
    const { body } = await ask({
      filters: FILTERS,
      query: "define osmosis",
      alpha: 0.9,
      enableRerank: false,
    });
    expect(body.classification).toMatchObject({ alpha: 0.9, alphaSource: "request" });
    expect(body.debug.reranker).toBe("none");
  });

  it("returns exactly topK items whenever the scope has that many chunks", async () => {
    for (const query of [
      "how do cells get energy from light",
      "Which of the following is not found in a plant cell?",
    ]) {
      for (const topK of [1, 5, 17, 50]) {
        const { body } = await ask({ filters: FILTERS, query, topK });
        expect(body.items).toHaveLength(topK);
      }
    }
  });

  it("answers a nonsense or out-of-scope query with no items and the reason", async () => {
    for (const query of ["xylophone zebra quasar cryptocurrency", "zzzz qqqq nothing matches this"]) {
      const { status, body } = await ask({ filters: FILTERS, query, topK: 8 });
      expect(status).toBe(200);
      expect(() => RetrievalQueryResponseSchema.parse(body)).not.toThrow();
      expect(body.items).toEqual([]);
      expect(["no_terms_in_scope", "weak_evidence"]).toContain(body.refusal.code);
      expect(body.refusal.bestRelevance).toBeLessThan(body.refusal.threshold);
      expect(body.suggestions.join(" ")).toMatch(/Remove the chapter filter/);
    }
    // The same words about the scope's topic are answered, with calibrated relevance per passage.
    const { body } = await ask({ filters: FILTERS, query: "light reactions of photosynthesis", topK: 8 });
    expect(body.refusal).toBeUndefined();
    expect(body.items[0].relevance).toBeGreaterThan(0.5);
    expect(body.items[0].weak).toBe(false);
  });

  it("refuses a real question from another subject (scope evidence), with the reason and next steps", async () => {
    for (const query of [
      "offside rule in football explained",
      "Which of the following battles ended Napoleon's rule? A) Waterloo B) Trafalgar C) Austerlitz D) Leipzig",
    ]) {
      const { status, body } = await ask({ filters: FILTERS, query, topK: 8 });
      expect(status).toBe(200);
      expect(() => RetrievalQueryResponseSchema.parse(body)).not.toThrow();
      expect(body.items, query).toEqual([]);
      expect(["no_terms_in_scope", "weak_evidence"]).toContain(body.refusal.code);
      expect(body.refusal.message.length).toBeGreaterThan(20);
      expect(body.refusal.bestRelevance).toBeLessThan(body.refusal.threshold);
      expect(body.suggestions.length).toBeGreaterThan(0);
    }
    // A pasted exam question on the scope's subject is answered.
    const { body } = await ask({
      filters: FILTERS,
      query:
        "Which of the following is not a component of the plasma membrane? A) phospholipids B) proteins C) cholesterol D) peptidoglycan",
      topK: 8,
    });
    expect(body.refusal).toBeUndefined();
    expect(body.items.length).toBe(8);
  });

  it("flags every passage under 0.5 relevance as weak (not preselected), and only those", async () => {
    for (const query of [
      "light reactions of photosynthesis",
      "how do enzymes work",
      "cell membrane transport",
    ]) {
      const { body } = await ask({ filters: FILTERS, query, topK: 12 });
      expect(body.items.length, query).toBeGreaterThan(0);
      for (const it of body.items as { relevance: number; weak: boolean }[])
        expect(it.weak, `${query}: ${it.relevance}`).toBe(it.relevance < 0.5);
    }
  });

  it("applies chapter and resource-type filters to both legs", async () => {
    const { body } = await ask({
      filters: { ...FILTERS, chapterNumber: 8 },
      query: "membrane transport proteins",
      topK: 12,
    });
    expect(body.items.length).toBe(12);
    expect(body.items.every((i: { chapterNumber: number }) => i.chapterNumber === 8)).toBe(true);
    const notesOnly = await ask({
      filters: { ...FILTERS, resourceType: ["notes"] },
      query: "soil nutrients",
      topK: 5,
    });
    expect(notesOnly.body.items.every((i: { resourceType: string }) => i.resourceType === "notes")).toBe(
      true,
    );
  });

  it("never shows a teacher's private resource to another teacher", async () => {
    const mine = await ask({
      filters: { ...FILTERS, resourceType: "notes" },
      query: "soil nutrients nitrogen",
      topK: 5,
    });
    expect(mine.body.items.length).toBe(5);
    const theirs = await ask(
      { filters: { ...FILTERS, resourceType: "notes" }, query: "soil nutrients nitrogen", topK: 5 },
      env.otherTeacher.token,
    );
    expect(theirs.body.items).toHaveLength(0);
    const all = await ask(
      { filters: FILTERS, query: "soil nutrients nitrogen fixation", topK: 50 },
      env.otherTeacher.token,
    );
    expect(all.body.items.some((i: { resourceType: string }) => i.resourceType === "notes")).toBe(false);
  });

  it("strips teacher instructions from generate queries and spreads results across sections", async () => {
    const { body } = await ask({ filters: FILTERS, query: "Generate 10 MCQs on Photosynthesis" });
    expect(body.classification.type).toBe("generate");
    expect(body.classification.searchText.toLowerCase()).not.toContain("mcq");
    const sections = new Set(
      body.items.map((i: { sectionPath: string }) => /8\.\d/.exec(i.sectionPath)?.[0]),
    );
    expect(sections.size).toBeGreaterThanOrEqual(3);
  });

  it("falls back to the fused order when the LLM reranker hangs, errors or returns malformed JSON", async () => {
    for (const model of [hangingModel(), failingModel(), textModel(() => "{not json")]) {
      setLanguageModelForProcess(model, 200);
      const started = Date.now();
      const { status, body } = await ask({
        filters: FILTERS,
        query: "How does the sodium-potassium pump work?",
      });
      expect(status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5000);
      // The planner's model call shares the 200 ms budget: on a loaded machine it can spend all of
      // it, and then the offline reranker orders the results (with its own warning) instead of the
      // fused fallback. Both are the guarded outcome; neither may wait for the model.
      expect(["fused-fallback", "offline"]).toContain(body.debug.reranker);
      expect(body.warnings.join(" ")).toMatch(/reranker/);
      if (body.debug.reranker === "fused-fallback") {
        const fused = body.items.map((i: { fusedScore: number }) => i.fusedScore);
        expect(fused).toEqual([...fused].sort((a, b) => b - a));
      } else {
        expect(body.warnings.join(" ")).toMatch(/budget was spent on planning/);
      }
    }
    setLanguageModelForProcess(undefined);
  });

  it("uses the LLM's list-wise scores when it answers", async () => {
    setLanguageModelForProcess(
      textModel((options) => {
        const prompt = JSON.stringify(options.prompt);
        const ids = [...prompt.matchAll(/passage id=\\+"(\d+)/g)].map((m) => Number(m[1]));
        return JSON.stringify({ scores: ids.map((id) => ({ id, score: id === ids.length - 1 ? 10 : 1 })) });
      }),
      2000,
    );
    const { body } = await ask({
      filters: FILTERS,
      query: "active transport against a gradient",
      topK: 4,
      rerankFanout: 6,
    });
    setLanguageModelForProcess(undefined);
    expect(body.debug.reranker).toBe("llm");
    expect(body.items[0].rerankScore).toBe(1);
  });

  /** A reranking model that gives every passage `score`, or `best` to the last one it is shown. */
  const scoringModel = (score: number, best = score) =>
    textModel((options) => {
      const prompt = JSON.stringify(options.prompt);
      const ids = [...prompt.matchAll(/passage id=\\+"(\d+)/g)].map((m) => Number(m[1]));
      return JSON.stringify({
        scores: ids.map((id) => ({ id, score: id === ids.length - 1 ? best : score })),
      });
    });

  it("refuses when the LLM reranker reads the closest passages and finds none about the query", async () => {
    const question = {
      filters: FILTERS,
      query: "active transport against a gradient",
      topK: 4,
      rerankFanout: 6,
    };
    // The calibrated model alone answers this in-scope query…
    expect((await ask(question)).body.refusal).toBeUndefined();
    // …but a model that scores every passage 0 or 1 of 10 has read them and found nothing.
    setLanguageModelForProcess(scoringModel(1, 0), 2000);
    const { status, body } = await ask(question);
    setLanguageModelForProcess(undefined);
    expect(status).toBe(200);
    expect(() => RetrievalQueryResponseSchema.parse(body)).not.toThrow();
    expect(body.debug.reranker).toBe("llm");
    expect(body.items).toEqual([]);
    expect(body.refusal).toMatchObject({ code: "model_found_nothing", bestRelevance: 0.1, threshold: 0.2 });
    expect(body.refusal.message).toMatch(/language model/);
    expect(body.suggestions.length).toBeGreaterThan(0);
  });

  it("keeps results the calibrated model would refuse when the LLM reranker finds a passage that answers", async () => {
    const question = { filters: FILTERS, query: "xylophone zebra quasar cryptocurrency", topK: 4 };
    expect((await ask(question)).body.refusal).toBeDefined();
    // A middling score (4 of 10) leaves the decision to the calibrated model…
    setLanguageModelForProcess(scoringModel(1, 4), 2000);
    const unsure = await ask(question);
    expect(unsure.body.debug.reranker).toBe("llm");
    expect(["no_terms_in_scope", "weak_evidence"]).toContain(unsure.body.refusal?.code);
    // …a passage scored 8 of 10 overrides it.
    setLanguageModelForProcess(scoringModel(1, 8), 2000);
    const { body } = await ask(question);
    setLanguageModelForProcess(undefined);
    expect(body.debug.reranker).toBe("llm");
    expect(body.refusal).toBeUndefined();
    expect(body.items.length).toBeGreaterThan(0);
  });

  it("answers bad input with 400 and field paths", async () => {
    const cases: [unknown, string][] = [
      [{ filters: FILTERS, query: "   " }, "query"],
      [{ filters: FILTERS, query: "x".repeat(2001) }, "query"],
      [{ filters: FILTERS, query: "osmosis", topK: 0 }, "topK"],
      [{ filters: FILTERS, query: "osmosis", topK: 51 }, "topK"],
      [{ filters: FILTERS, query: "osmosis", alpha: 1.5 }, "alpha"],
      [{ filters: FILTERS, query: "osmosis", bloomTargets: ["Memorise"] }, "bloomTargets.0"],
      [{ filters: { board: "OpenStax" }, query: "osmosis" }, "filters.grade"],
      [{ filters: FILTERS, query: "osmosis", unknown: true }, "(root)"],
    ];
    for (const [json, field] of cases) {
      const { status, body } = await ask(json);
      expect(status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    const anon = await query(
      makeRequest("POST", "/api/retrieval/query", { json: { filters: FILTERS, query: "osmosis" } }),
      {},
    );
    expect(anon.status).toBe(401);
  });

  it("survives tsquery syntax and SQL-looking input", async () => {
    for (const q of ["osmosis & | ! :* <-> ')", "'; drop table documents; --", "\u202e\u200b😀 cell"]) {
      const { status } = await ask({ filters: FILTERS, query: q });
      expect(status).toBe(200);
    }
    // A NUL or a lone surrogate cannot be stored or encoded: refused at the boundary, with the field.
    for (const q of ["cell\u0000", "cell \ud800"]) {
      const { status, body } = await ask({ filters: FILTERS, query: q });
      expect(status).toBe(400);
      expect(body.error.details).toEqual([expect.objectContaining({ path: "query" })]);
    }
    const [{ n }] = (await env.db.query<{ n: number }>("select count(*)::int as n from documents")) as [
      { n: number },
    ];
    expect(n).toBeGreaterThan(0);
  });

  it("searches a British-spelled query in the (American) book's spelling: the same passages as its American twin", async () => {
    for (const [gb, us] of [
      [
        "Which colours of light do the pigments absorb at the reaction centre?",
        "Which colors of light do the pigments absorb at the reaction center?",
      ],
      [
        "how are the fibres of the cytoskeleton organised",
        "how are the fibers of the cytoskeleton organized",
      ],
    ] as const) {
      const british = await ask({ filters: FILTERS, query: gb });
      const american = await ask({ filters: FILTERS, query: us });
      expect(british.status).toBe(200);
      expect(british.body.refusal).toBeUndefined();
      expect(british.body.items.map((i: { id: string }) => i.id)).toEqual(
        american.body.items.map((i: { id: string }) => i.id),
      );
      expect(british.body.explanations.join(" ")).toMatch(/the spelling of this scope's books/);
      expect(american.body.explanations.join(" ")).not.toMatch(/spelling/);
    }
    // A word whose variants the scope does not hold either stays as typed ("tyre": no "tire" here).
    const { body } = await ask({ filters: FILTERS, query: "how is a tyre made" });
    expect(body.explanations.join(" ")).not.toMatch(/spelling/);
  });
});

describe("POST /api/retrieval/enhance-query", () => {
  it("adds explained, highlighted terms offline and keeps the teacher's words", async () => {
    const res = await enhance(
      makeRequest("POST", "/api/retrieval/enhance-query", {
        token: env.teacher.token,
        json: { rawQuery: "diffusion across membranes", filters: FILTERS, bloomTargets: ["Analyze"] },
      }),
      {},
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.debug.source).toBe("offline");
    expect(body.enhancedQuery.toLowerCase()).toContain("diffusion across membranes");
    expect(body.addedTerms.length).toBeGreaterThan(0);
    expect(body.explanations.length).toBeGreaterThan(0);
    for (const h of body.termHighlights)
      expect(body.enhancedQuery.slice(h.start, h.end).toLowerCase()).toBe(h.term.toLowerCase());
  });

  it("suggests the topic's key terms from the curriculum, not generic words (issue 29)", async () => {
    const suggest = async (rawQuery: string) => {
      const res = await enhance(
        makeRequest("POST", "/api/retrieval/enhance-query", {
          token: env.teacher.token,
          json: { rawQuery, filters: FILTERS },
        }),
        {},
      );
      return (await res.json()) as { addedTerms: { term: string }[]; explanations: string[] };
    };
    const light = await suggest("photosynthesis light reactions");
    const added = light.addedTerms.map((a) => a.term.toLowerCase());
    expect(added.join(" ")).toMatch(/photosystem|nadph|atp|thylakoid|chlorophyll/);
    expect(added).not.toContain("visible light");
    expect(added).not.toContain("chemical reaction");
    expect(light.explanations[0]).not.toMatch(/as written/);
    const lyso = await suggest("how do lysosomes work");
    expect(lyso.addedTerms.length).toBeGreaterThan(0);
    for (const a of lyso.addedTerms)
      expect(["cell", "cells", "function", "work"]).not.toContain(a.term.toLowerCase());
  });

  it("falls back to the offline enhancer when the LLM fails, and says so", async () => {
    setLanguageModelForProcess(failingModel(), 500);
    const res = await enhance(
      makeRequest("POST", "/api/retrieval/enhance-query", {
        token: env.teacher.token,
        json: { rawQuery: "osmosis", filters: FILTERS },
      }),
      {},
    );
    setLanguageModelForProcess(undefined);
    const body = await res.json();
    expect(body.debug).toMatchObject({ source: "offline" });
    expect(body.debug.fallbackReason).toMatch(/offline/);
  });
});

describe("GET /api/retrieval/facets", () => {
  it("lists the caller's visible boards, classes, subjects, types and chapters", async () => {
    const res = await facets(
      makeRequest("GET", "/api/retrieval/facets", { token: env.otherTeacher.token }),
      {},
    );
    const body = await res.json();
    const subject = body.boards[0].grades[0].subjects[0];
    expect(body.boards[0].board).toBe("OpenStax");
    expect(subject.subject).toBe("Biology");
    expect(subject.resourceTypes).toEqual(["textbook"]);
    expect(subject.chapters.map((c: { number: number }) => c.number)).toEqual([4, 5, 8]);
    const mine = await (
      await facets(makeRequest("GET", "/api/retrieval/facets", { token: env.teacher.token }), {})
    ).json();
    expect(mine.boards[0].grades[0].subjects[0].resourceTypes).toEqual(
      expect.arrayContaining(["textbook", "notes"]),
    );
  });
});
