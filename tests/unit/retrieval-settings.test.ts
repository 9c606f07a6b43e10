import { describe, expect, it } from "vitest";
import {
  DEFAULT_COHERENCE,
  DEFAULT_POOL_FACTOR,
  DEFAULT_SECTION_SPREAD_LAMBDA,
  PLAN_DEFAULTS,
} from "@/lib/retrieval/pipeline/defaults";
import { resolveSettings } from "@/lib/retrieval/pipeline/settings";
import type { IRetrieveDeps } from "@/lib/retrieval/pipeline/types";
import { RetrievalQueryRequestSchema, type TRetrievalQueryInput } from "@/schema/retrieval.schema";

const deps = { llmTimeoutMs: 1000 } as IRetrieveDeps;
const request = (extra: Partial<TRetrievalQueryInput> = {}) =>
  RetrievalQueryRequestSchema.parse({
    filters: { board: "CBSE", grade: "11", subject: "Biology" },
    query: "photosynthesis",
    ...extra,
  });

describe("resolveSettings", () => {
  it("gives the production defaults when neither the request nor an ablation sets anything", () => {
    const s = resolveSettings(deps, request(), {}, { navigation: false });
    expect(s).toMatchObject({
      legs: "both",
      alpha: undefined,
      alphaShift: 0,
      classifier: true,
      poolFactor: DEFAULT_POOL_FACTOR,
      adjacent: "classifier",
      rerank: true,
      coherenceWeight: DEFAULT_COHERENCE,
      sectionSpreadLambda: DEFAULT_SECTION_SPREAD_LAMBDA,
      planner: true,
      hyde: true,
      hydeLookups: false,
      fusion: "score",
      offlineVariants: [],
      refuse: true,
      // The planner's probes are the corrective search: no retry while it runs.
      retry: false,
    });
    expect(s.plan).toEqual(PLAN_DEFAULTS);
  });

  it("lets either the request or the ablation switch a stage off", () => {
    expect(resolveSettings(deps, request({ enableRerank: false }), {}, { navigation: false }).rerank).toBe(
      false,
    );
    expect(resolveSettings(deps, request(), { rerank: false }, { navigation: false }).rerank).toBe(false);
    expect(resolveSettings(deps, request({ expand: false }), {}, { navigation: false }).adjacent).toBe("off");
    expect(resolveSettings(deps, request(), { expansion: false }, { navigation: false }).adjacent).toBe(
      "off",
    );
    expect(resolveSettings(deps, request({ expand: true }), {}, { navigation: false }).adjacent).toBe(
      "at-least-one",
    );
    expect(resolveSettings(deps, request({ planner: false }), {}, { navigation: false }).planner).toBe(false);
    expect(resolveSettings(deps, request(), { planner: false }, { navigation: false }).planner).toBe(false);
  });

  it("retries only without the planner and never for 'the next section'", () => {
    expect(resolveSettings(deps, request({ planner: false }), {}, { navigation: false }).retry).toBe(true);
    expect(resolveSettings(deps, request({ planner: false }), {}, { navigation: true }).retry).toBe(false);
    expect(
      resolveSettings(deps, request({ planner: false }), { retry: false }, { navigation: false }).retry,
    ).toBe(false);
  });

  it("keeps the request's α and clamps the pool factor to at least 1", () => {
    const s = resolveSettings(
      deps,
      request({ alpha: 0.2 }),
      { poolFactor: 0.5, alphaShift: 0.1 },
      { navigation: false },
    );
    expect(s.alpha).toBe(0.2);
    expect(s.alphaShift).toBe(0.1);
    expect(s.poolFactor).toBe(1);
  });

  it("takes the planner budget from the deployment, and a tuning knob over both", () => {
    const withBudget = { ...deps, planBudgetMs: 80 };
    expect(resolveSettings(withBudget, request(), {}, { navigation: false }).plan.latencyBudgetMs).toBe(80);
    const tuned = resolveSettings(
      withBudget,
      request(),
      { planTuning: { latencyBudgetMs: 5, hydeWeight: 0.1 } },
      { navigation: false },
    );
    expect(tuned.plan).toEqual({ ...PLAN_DEFAULTS, latencyBudgetMs: 5, hydeWeight: 0.1 });
  });
});
