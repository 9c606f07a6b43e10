import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyQuery } from "@/lib/retrieval/classify";
import { DEFAULT_FUSED_WEIGHT, rerankOffline } from "@/lib/steps/rerank/offline";
import type { IRerankCandidate } from "@/types/retrieval.types";

const q = (text: string) => ({ ...classifyQuery(text), original: text });
const cand = (key: string, content: string, sectionPath = "", fusedScore = 0.8): IRerankCandidate => ({
  key,
  content,
  sectionPath,
  title: "Biology",
  fusedScore,
});
const keys = (xs: { key: string }[]) => xs.map((x) => x.key);

const FILLER =
  "Cells use energy from food to build the molecules they need. Many processes in the body depend on a steady supply of water and nutrients.";

describe("rerankOffline", () => {
  it("puts the defining passage first for a lookup", () => {
    const out = rerankOffline(q("What is osmosis?"), [
      cand(
        "mention",
        `${FILLER} Experiments on osmosis and diffusion were done in the lab with potatoes and salt. ${FILLER}`,
      ),
      cand(
        "definition",
        `Osmosis is the movement of water through a semipermeable membrane according to the concentration gradient of water across the membrane. ${FILLER}`,
      ),
    ]);
    expect(keys(out)).toEqual(["definition", "mention"]);
    expect(out[0]?.features.typeCue).toBeGreaterThan(out[1]?.features.typeCue ?? 1);
  });

  it("recognises '… is called X' for a reverse lookup", () => {
    const out = rerankOffline(
      q("What is the term for: movement of water across a membrane toward higher solute concentration?"),
      [
        cand(
          "other",
          `Water moves across the membrane of cells. Solute concentration varies between cells. ${FILLER}`,
        ),
        cand(
          "named",
          `The movement of water across a membrane toward the side with the higher solute concentration is called osmosis. ${FILLER}`,
        ),
      ],
    );
    expect(out[0]?.key).toBe("named");
  });

  it("rewards a section heading that names the topic", () => {
    const body = `Passive transport moves substances down their concentration gradient without energy. ${FILLER}`;
    const out = rerankOffline(q("Generate 5 MCQs on Passive Transport"), [
      cand("elsewhere", body, "Chapter 5 > 5.3 Active Transport > Electrochemical Gradient"),
      cand("section", body, "Chapter 5 > 5.2 Passive Transport > Diffusion"),
    ]);
    expect(keys(out)).toEqual(["section", "elsewhere"]);
    expect(out[0]?.features.heading).toBeGreaterThan(out[1]?.features.heading ?? 1);
  });

  it("prefers worked examples for a numerical", () => {
    const out = rerankOffline(
      q("Calculate the acceleration of a car that speeds up from 0 to 20 m/s in 5 s"),
      [
        cand(
          "narrative",
          "Acceleration is important in everyday life. A car that speeds up is accelerating, and people feel acceleration in elevators.",
        ),
        cand(
          "example",
          "Problem: A car speeds up from 0 to 20 m/s in 5 s. What is its acceleration? Strategy: use the definition of acceleration. Solution: a = Δv/Δt = (20 m/s − 0 m/s)/(5 s) = 4 m/s^2.",
        ),
      ],
    );
    expect(out[0]?.key).toBe("example");
  });

  it("prefers a passage that covers both sides of a comparison", () => {
    const out = rerankOffline(q("Difference between mitosis and meiosis"), [
      cand(
        "one-side",
        `Mitosis produces two daughter cells with the same chromosome number as the parent. ${FILLER}`,
      ),
      cand(
        "both",
        `Mitosis produces two identical diploid cells, whereas meiosis produces four haploid cells that differ genetically. ${FILLER}`,
      ),
    ]);
    expect(out[0]?.key).toBe("both");
  });

  it("prefers passages where the query words occur together", () => {
    const out = rerankOffline(q("light dependent reactions"), [
      cand(
        "scattered",
        `Light reaches the leaf. ${FILLER} ${FILLER} Some reactions are dependent on temperature.`,
      ),
      cand("together", `The light dependent reactions take place in the thylakoid membrane. ${FILLER}`),
    ]);
    expect(out[0]?.key).toBe("together");
    expect(out[0]?.features.proximity).toBeGreaterThan(out[1]?.features.proximity ?? 1);
  });

  it("uses Bloom cues only when targets are given", () => {
    const cs = [
      cand("facts", `Enzymes are proteins. Enzymes are called catalysts. ${FILLER}`),
      cand(
        "design",
        `Design an experiment to test the hypothesis that temperature affects enzyme activity. ${FILLER}`,
      ),
    ];
    const none = rerankOffline(q("enzymes"), cs);
    expect(none.every((r) => r.features.bloomCue === 0)).toBe(true);
    const create = rerankOffline(q("enzymes"), cs, { bloomTargets: ["Create"] });
    const design = create.find((r) => r.key === "design");
    const facts = create.find((r) => r.key === "facts");
    expect(design?.features.bloomCue).toBeGreaterThan(facts?.features.bloomCue ?? 1);
  });

  it("only refines: a large fused lead survives, and fusedWeight 1 keeps the fused order", () => {
    const cs = [
      cand("strong", `Unrelated text about rocks and rivers. ${FILLER}`, "", 1),
      cand("weak", "Osmosis is the movement of water across a membrane.", "5.2 Osmosis", 0.1),
    ];
    expect(rerankOffline(q("What is osmosis?"), cs)[0]?.key).toBe("strong");
    const tie = [cand("b", "Osmosis is water movement.", "", 0.5), cand("a", FILLER, "", 0.9)];
    expect(keys(rerankOffline(q("osmosis"), tie, { fusedWeight: 1 }))).toEqual(["a", "b"]);
  });

  it("returns [] for no candidates", () => {
    expect(rerankOffline(q("osmosis"), [])).toEqual([]);
  });

  it("returns a permutation with scores bounded by the blend", () => {
    const text = fc.string({ maxLength: 200 });
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ content: text, sectionPath: text, fused: fc.double({ min: 0, max: 1, noNaN: true }) }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        fc.constantFrom(
          "What is osmosis?",
          "Explain how enzymes work",
          "Generate 5 MCQs on cells",
          "speed vs velocity",
        ),
        (raw, query) => {
          const cs = raw.map((r, i) => cand(`c${i}`, r.content, r.sectionPath, r.fused));
          const out = rerankOffline(q(query), cs);
          expect(keys(out).sort()).toEqual(keys(cs).sort());
          const maxFused = Math.max(...cs.map((c) => c.fusedScore));
          for (const r of out) {
            const c = cs.find((x) => x.key === r.key);
            const f = maxFused > 0 ? (c?.fusedScore ?? 0) / maxFused : 0;
            expect(r.rerankScore).toBeGreaterThanOrEqual(DEFAULT_FUSED_WEIGHT * f - 1e-9);
            expect(r.rerankScore).toBeLessThanOrEqual(
              DEFAULT_FUSED_WEIGHT * f + (1 - DEFAULT_FUSED_WEIGHT) + 1e-9,
            );
            for (const v of Object.values(r.features)) {
              expect(v).toBeGreaterThanOrEqual(0);
              expect(v).toBeLessThanOrEqual(1 + 1e-9);
            }
          }
          for (let i = 1; i < out.length; i++) {
            expect(out[i - 1]?.rerankScore ?? 0).toBeGreaterThanOrEqual(out[i]?.rerankScore ?? 0);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
