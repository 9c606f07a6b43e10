import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { equationPlans } from "@/lib/generation/offline/forms/higher-equation-plan";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import { extractEquations, type IEquation } from "@/lib/generation/offline/knowledge/equations";
import { extractEffects, resolveLead } from "@/lib/generation/offline/knowledge/relations";
import { isStandalone } from "@/lib/generation/offline/knowledge/sentences";
import { formSlot } from "../support/form-slots";
import { testChunk, testSentence } from "../support/sentence";

/** Wave 11 (issue 25): more Apply and Create material from equations and stated effects. */

const eqs = (...texts: string[]) =>
  extractEquations(texts.map((t, i) => testChunk(t, i, "11.2 Heat, Specific Heat", "d1")));
const show = (e: IEquation) => [e.text, e.subject.name, ...e.factors.map((f) => f.name)];

describe("equations whose symbols another selected passage names", () => {
  it("names Q = mcΔT in a worked example from the definition passage (OpenStax Physics)", () => {
    const example =
      "### Calculating the Required Heat\n\nSolution: Calculate the temperature change from the heat transferred by rearranging the equation Q = mcΔT to solve for ΔT.";
    const definition =
      "### Specific Heat\n\nThe equation for heat transfer Q is written with the mass of the substance and the change in its temperature. The symbol c stands for specific heat, and depends on the material and phase.";
    const found = eqs(example, definition).map(show);
    expect(found).toContainEqual(["Q = mcΔT", "heat", "mass", "specific heat", "temperature change"]);
    // Alone, the worked example names neither m nor c: nothing is guessed.
    expect(eqs(example)).toEqual([]);
  });

  it("reads c as the specific heat unless the passage is about light", () => {
    expect(
      eqs(
        "### Heat\n\nThe heat needed is Q = mcΔT, where m is the mass, c is the specific heat and ΔT is the change in temperature.",
      ).map(show),
    ).toEqual([["Q = mcΔT", "heat", "mass", "specific heat", "change in temperature"]]);
    expect(
      eqs(
        "### Waves\n\nFor light, c = fλ, where c is the speed of light, f is the frequency and λ is the wavelength.",
      )
        .map(show)
        .map((s) => s[1]),
    ).toEqual(["speed of light"]);
  });

  it("reads Ohm's law in an NCERT-style sentence", () => {
    expect(
      eqs(
        "### Ohm's Law\n\nAccording to Ohm's law, V = IR, where V is the potential difference across the conductor, I is the current through it and R is its resistance.",
      ).map(show),
    ).toEqual([["V = IR", "potential difference", "current", "resistance"]]);
  });

  it("says why an equation is given up", () => {
    const why: string[] = [];
    extractEquations([testChunk("### Motion\n\nWe use x = yz here.", 0, "2.1 Motion", "d1")], (w) =>
      why.push(w),
    );
    expect(why).toEqual(["x not named (x = yz)"]);
  });
});

const planOf = (text: string) =>
  eqs(text).flatMap((e) =>
    equationPlans(e).map((p) => `${p.input.name} → ${p.output.name} (${p.holds.join("; ")})`),
  );

describe("a school practical that tests a stated equation (Create)", () => {
  it("plans f = μN: load the block, read the friction force, same surfaces (OpenStax Physics 4.2)", () => {
    expect(
      planOf(
        "### Friction\n\nThe force of friction is f = μN, where μ is the coefficient of friction and N is the normal force.",
      ),
    ).toEqual(["normal force → friction (use the same two surfaces)"]);
  });

  it("never keeps a quantity the same that follows from the others (F = ma: no fixed acceleration)", () => {
    const plans = planOf(
      "### Newton's Second Law\n\nF_net = ma, where F_net is the net external force, m is the mass of the system, and a is the acceleration.",
    );
    expect(plans).toEqual([
      "net external force → acceleration (keep the mass the same)",
      "mass → acceleration (keep the pulling force the same (the same hanging mass))",
    ]);
    // A hanging mass adds to the mass accelerated: the force is changed by moving masses to the hanger.
    const [byForce] = eqs(
      "### Newton's Second Law\n\nF_net = ma, where F_net is the net external force, m is the mass of the system, and a is the acceleration.",
    ).flatMap((e) => equationPlans(e));
    expect(byForce?.setBy).toMatch(/from the trolley to a hanger .* total mass accelerated stays the same/);
  });

  it("plans the NCERT Ohm's law practical and refuses laws a school cannot test this way", () => {
    expect(
      planOf(
        "### Ohm's Law\n\nAccording to Ohm's law, V = IR, where V is the potential difference across the conductor, I is the current through it and R is its resistance.",
      ),
    ).toEqual(["potential difference → current (use the same resistor, kept at the same temperature)"]);
    // A constant of nature, no instrument reading, or a speed that cannot be held.
    expect(planOf("### Weight\n\nW = mg, where W is the weight and m is the mass of the object.")).toEqual(
      [],
    );
    expect(
      planOf(
        "### Speed\n\nv = d/t, where v is the average speed, d is the distance travelled and t is the time.",
      ),
    ).toEqual([]);
    expect(
      planOf(
        "### Light\n\nc = fλ, where c is the speed of light, f is the frequency and λ is the wavelength.",
      ),
    ).toEqual([]);
  });

  it("writes a plan the gate passes at Create", () => {
    const chunk = testChunk(
      "### Friction\n\nThe force of friction depends on two factors: the coefficient of friction and the normal force. The force of friction is f = μN, where μ is the coefficient of friction and N is the normal force.",
      0,
      "4.2 Newton's First Law of Motion: Inertia",
      "7a1c2e4a-1b2c-4d3e-8f40-1234567890f2",
    );
    const found = [
      ...createOfflineGenerator([chunk], 1, [chunk]).candidates(
        formSlot(chunk.documentId, "long", "Create"),
        {
          used: new Set(),
          keyAt: 0,
        },
      ),
    ].filter((c) => c.form === "equation-plan");
    const q = found[0]?.question;
    expect(q?.promptText).toMatch(/how the force of friction depends on the normal force/);
    expect(q?.type === "long" && q.suggestedAnswer).toMatch(/Control variables: use the same two surfaces/);
    expect(q?.type === "long" && q.suggestedAnswer).toMatch(/a straight line through the origin/);
    const verdict = gateQuestion(q!, "Create", createGateContext([chunk]), { accepted: [] });
    expect(verdict.demand).toBe("Create");
    expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
  });
});

/** Two sentences of one block, the second leaning on the first ("It …", "This hormone …"). */
const pair = (first: string, second: string) => [
  testSentence(first, { position: 0, standalone: isStandalone(first) }),
  testSentence(second, { position: 1, standalone: isStandalone(second) }),
];
const effectsOf = (first: string, second: string) =>
  extractEffects(pair(first, second)).map((e) => [e.agent, e.sign, e.target, e.stated]);

describe("a stated effect whose subject is the previous sentence's (It …, This hormone …)", () => {
  it("puts the subject back when the previous sentence says what it is (OpenStax Biology)", () => {
    expect(
      effectsOf(
        "Oxytocin is a hormone produced by the hypothalamus and stored in the posterior pituitary.",
        "It stimulates the contraction of the uterus during childbirth.",
      ),
    ).toEqual([
      [
        "oxytocin",
        1,
        "the contraction of the uterus",
        "Oxytocin stimulates the contraction of the uterus during childbirth.",
      ],
    ]);
    expect(
      effectsOf(
        "Growth hormone (GH) is produced by the anterior pituitary gland.",
        "This hormone accelerates the rate of protein synthesis in skeletal muscle and bones.",
      ),
    ).toEqual([
      [
        "growth hormone",
        1,
        "the rate of protein synthesis",
        "Growth hormone accelerates the rate of protein synthesis in skeletal muscle and bones.",
      ],
    ]);
  });

  it("quotes both sentences, as the passage has them", () => {
    const [e] = extractEffects(
      pair(
        "Auxins are plant hormones made in the tips of growing shoots.",
        "They promote cell elongation in young stems.",
      ),
    );
    expect(e?.sentence).toBe(
      "Auxins are plant hormones made in the tips of growing shoots. They promote cell elongation in young stems.",
    );
  });

  it("refuses a subject of another kind or number, or a previous subject that is no one thing (NCERT style)", () => {
    expect(
      effectsOf(
        "Insulin is a hormone made by the pancreas.",
        "This enzyme lowers the level of glucose in blood.",
      ),
    ).toEqual([]);
    expect(
      effectsOf(
        "Gibberellins are a group of plant hormones.",
        "It increases the rate of germination of seeds.",
      ),
    ).toEqual([]);
    expect(
      effectsOf(
        "Many hormones are made by the pituitary gland.",
        "They increase the rate of growth of bones.",
      ),
    ).toEqual([]);
    const far = [
      testSentence("Amylase is an enzyme present in saliva.", { position: 0 }),
      testSentence("It increases the rate of digestion of starch.", { position: 2, standalone: false }),
    ];
    expect(resolveLead(far[1]!, far)).toBeNull();
  });
});

describe("equation questions a physics teacher would set", () => {
  const WAVES = testChunk(
    "### Wave Speed\n\nThe speed of a wave is v_w = fλ, where v_w is the wave speed, f is the frequency and λ is the wavelength.",
    0,
    "13.2 Wave Properties",
    "7a1c2e4a-1b2c-4d3e-8f40-1234567890f3",
  );
  it("never varies a wave's speed with its frequency or wavelength (the medium sets it)", () => {
    const gen = createOfflineGenerator([WAVES], 1, [WAVES]);
    for (const level of ["Analyze", "Evaluate"] as const) {
      const found = [
        ...gen.candidates(formSlot(WAVES.documentId, "mcq", level), { used: new Set(), keyAt: 0 }),
        ...gen.candidates(formSlot(WAVES.documentId, "short", level), { used: new Set(), keyAt: 0 }),
      ].filter((c) => c.form === "equation-data" || c.form === "equation-claim");
      for (const c of found)
        expect(c.question.promptText).not.toMatch(
          /measured the (?:wave )?speed|the (?:wave )?speed (?:doubles|becomes)/,
        );
    }
  });

  it("gives a specific heat a school material has (hundreds to thousands of J/(kg⋅K))", () => {
    const chunk = testChunk(
      "### Specific Heat\n\nThe heat transferred is Q = mcΔT, where m is the mass, c is the specific heat and ΔT is the change in temperature.",
      0,
      "11.2 Heat, Specific Heat, and Heat Transfer",
      "7a1c2e4a-1b2c-4d3e-8f40-1234567890f4",
    );
    for (const seed of [1, 2, 3, 4, 5]) {
      const q = [
        ...createOfflineGenerator([chunk], seed, [chunk]).candidates(
          formSlot(chunk.documentId, "mcq", "Apply"),
          {
            used: new Set(),
            keyAt: 0,
          },
        ),
      ].find((c) => c.form === "equation-problem")?.question;
      const c = /specific heat c = ([\d.,]+) J/.exec(q?.promptText ?? "");
      if (c) expect(Number(c[1]!.replace(/,/g, ""))).toBeGreaterThanOrEqual(100);
    }
  });
});

describe("equations a lesson recalls on the way are not its questions (round 13 reading)", () => {
  it("reads 'F = ma = mg' as its last link and skips a law the passage says to recall", () => {
    const chain = eqs(
      "### Weight\n\nF = ma = mg. In this case, the force is the weight of the object, where m is the mass and a is the acceleration.",
    ).map((e) => e.text);
    expect(chain).not.toContain("F = ma");
    expect(chain).toContain("F = mg");
    expect(
      eqs(
        "### Blackbody Graphs\n\nRecall the equation v = fλ, where v is the speed, f is the frequency and λ is the wavelength.",
      ),
    ).toEqual([]);
    // Stated as the lesson's own law, the same equation is read.
    expect(
      eqs(
        "### Waves\n\nThe speed of a wave is v = fλ, where v is the speed, f is the frequency and λ is the wavelength.",
      ).map((e) => e.text),
    ).toEqual(["v = fλ"]);
  });

  it("writes no v = fλ scaling MCQ, and no speed calculation from made-up f and λ on light", () => {
    const light = testChunk(
      "### Light\n\nLight is an electromagnetic wave. Its speed is v = fλ, where v is the speed, f is the frequency and λ is the wavelength.",
      0,
      "15.2 The Behavior of Electromagnetic Radiation",
      "d1",
    );
    const apply = [
      ...createOfflineGenerator([light], 1, [light]).candidates(formSlot(light.documentId, "mcq", "Apply"), {
        used: new Set<string>(),
        keyAt: 0,
        random: () => 0.5,
      }),
    ].map((c) => c.question.promptText);
    for (const p of apply) {
      expect(p).not.toMatch(/frequency is .* and the wavelength is/);
      expect(p).not.toMatch(/calculate the speed/i);
    }
  });
});
