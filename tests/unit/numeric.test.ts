import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mulberry32 as seeded } from "@/lib/generation/offline/forms/common";
import {
  analyseWorkedExample,
  findWorkedExamples,
  type INumericProblem,
  type IWorkedExample,
  makeNumericProblem,
} from "@/lib/generation/offline/knowledge/numeric";
import {
  evaluate,
  parseExpression,
  readQuantity,
} from "@/lib/generation/offline/knowledge/numeric/expression";
import { formatSig, prettyText } from "@/lib/generation/offline/knowledge/numeric/format";
import type { IContextChunk } from "@/types/generation.types";

// Worked examples copied from OpenStax *Physics* (CC BY 4.0, ../shared/eval/corpus/physics), as
// ingestion stores them: Markdown with the book's linearised math.
const VELOCITY = `##### Calculating Average Velocity

Problem: A student has a displacement of 304 m north in 180 s. What was the student's average velocity?

###### Strategy

We know that the displacement is 304 m north and the time is 180 s. We can use the formula for average velocity to solve the problem.

Solution: v_avg = Δd/Δt = (304 m)/(180 s) = 1.7 m/s north`;
const LAYLA = `##### Solving for Displacement when Average Velocity and Time are Known

Problem: Layla jogs with an average velocity of 2.4 m/s east. What is her displacement after 46 seconds?

###### Strategy

We know that Layla's average velocity is 2.4 m/s east, and the time interval is 46 seconds. We can rearrange the average velocity formula to solve for the displacement.

Solution: v_avg = Δd/Δt; Δd = v_avgΔt; = (2.4 m/s)(46 s); = 1.1 × 10^2 m east`;
const CART = `#### An Accelerating Equipment Cart

Problem: A physics teacher pushes a cart of demonstration equipment to a classroom, as in Figure. Her mass is 65.0 kg, the cart’s mass is 12.0 kg, and the equipment’s mass is 7.0 kg. To push the cart forward, the teacher’s foot applies a force of 150 N in the opposite direction (backward) on the floor. Calculate the acceleration produced by the teacher. The force of friction, which opposes the motion, is 24.0 N.

###### Strategy

Because they accelerate together, we define the system to be the teacher, the cart, and the equipment. The teacher pushes backward with a force F_foot of 150 N. According to Newton’s third law, the floor exerts a forward force F_floor of 150 N on the system. Because all motion is horizontal, we can assume that no net force acts in the vertical direction, and the problem becomes one dimensional. As noted in the figure, the friction f opposes the motion and therefore acts opposite the direction of F_floor.

We should not include the forces F_teacher, F_cart, or F_foot because these are exerted by the system, not on the system. We find the net external force by adding together the external forces acting on the system (see the free-body diagram in the figure) and then use Newton’s second law to find the acceleration.

Solution: Newton’s second law is

a = F_net/m.

The net external force on the system is the sum of the external forces: the force of the floor acting on the teacher, cart, and equipment (in the horizontal direction) and the force of friction. Because friction acts in the opposite direction, we assign it a negative value. Thus, for the net force, we obtain

F_net = F_floor − f = 150 N − 24.0 N = 126 N.

The mass of the system is the sum of the mass of the teacher, cart, and equipment.

m = (65.0 + 12.0 + 7.0) kg = 84 kg

Insert these values of net F and m into Newton’s second law to obtain the acceleration of the system.

a = F_net/m; a = (126 N)/(84 kg) = 1.5 m/s^2`;
const PENDULUM = `#### Measuring Acceleration due to Gravity: The Period of a Pendulum

Problem: What is the acceleration due to gravity in a region where a simple pendulum having a length 75.000 cm has a period of 1.7357 s?

###### Strategy

We are asked to find g given the period T and the length L of a pendulum. We can solve T = 2π√(L/g) for g, assuming that the angle of deflection is less than 15 degrees. Recall that when the angle of deflection is less than 15 degrees, the pendulum is considered to be in simple harmonic motion, allowing us to use this equation.

Solution: 1. Square T = 2π√(L/g) and solve for g. g = 4π^2L/(T^2)
2. Substitute known values into the new equation. g = 4π^2(0.75000 m)/((1.7357 s)^2)
3. Calculate to find g. g = 9.8281 m/s^2`;
const SKIER = `#### Finding the Coefficient of Kinetic Friction on an Inclined Plane

Problem: A skier, illustrated in Figure(a), with a mass of 62 kg is sliding down a snowy slope at an angle of 25 degrees. Find the coefficient of kinetic friction for the skier if friction is known to be 45.0 N.

Figure: Use the diagram to help find the coefficient of kinetic friction for the skier.

###### Strategy

The magnitude of kinetic friction was given as 45.0 N. Kinetic friction is related to the normal force N as f_k = μ_kN. Therefore, we can find the coefficient of kinetic friction by first finding the normal force of the skier on a slope. The normal force is always perpendicular to the surface, and since there is no motion perpendicular to the surface, the normal force should equal the component of the skier’s weight perpendicular to the slope.

That is,

N = w_(⊥) = w cos(25^(∘)) = mg cos(25^(∘)).

Substituting this into our expression for kinetic friction, we get

f_k = μ_kmg cos 25^(∘),

which can now be solved for the coefficient of kinetic friction μk.

Solution: Solving for μ_k gives

μ_k = f_k/(w cos 25^(∘)) = f_k/(mg cos 25^(∘)).

Substituting known values on the right-hand side of the equation,

μ_k = (45.0 N)/((62 kg)(9.80 m/s^2)(0.906)) = 0.082.`;
const KEPLER = `##### Kepler’s Third Law

Problem: Given that the moon orbits Earth each 27.3 days and that it is an average distance of 3.84 × 10^8m from the center of Earth, calculate the period of an artificial satellite orbiting at an average altitude of 1,500 km above Earth’s surface.

###### Strategy

The period, or time for one orbit, is related to the radius of the orbit by Kepler’s third law, given in mathematical form by (T_1^2)/(T_2^2) = (r_1^3)/(r_2^3). Let us use the subscript 1 for the moon and the subscript 2 for the satellite. We are asked to find T2. The given information tells us that the orbital radius of the moon is r_1 = 3.84 × 10^8m, and that the period of the moon is T1 = 27.3 days. The height of the artificial satellite above Earth’s surface is given, so to get the distance r2 from the center of Earth we must add the height to the radius of Earth (6380 km). This gives r_2 = 1500 km + 6380 km = 7880 km. Now all quantities are known, so T2 can be found.

Solution: To solve for T2, we cross-multiply and take the square root, yielding

T_2^2 = T_1^2(r_2/r_1)^3;T2 = T1(r_2/r_1)^(3/2); T2 = (27.3d)(24.0h/d)(7880km/(3.84 × 10^5km))^(3/2) = 1.93h.`;
const VENUS = `#### Calculating Force: Venus Williams’ Racquet

Problem: During the 2007 French Open, Venus Williams (Figure) hit the fastest recorded serve in a premier women’s match, reaching a speed of 58 m/s (209 km/h). What was the average force exerted on the 0.057 kg tennis ball by Williams’ racquet? Assume that the ball’s speed just after impact was 58 m/s, the horizontal velocity before impact is negligible, and that the ball remained in contact with the racquet for 5 ms (milliseconds).

Figure: Venus Williams playing in the 2013 US Open (Edwin Martinez, Flickr)

###### Strategy

Recall that Newton’s second law stated in terms of momentum is

F_net = Δp/Δt.

As noted above, when mass is constant, the change in momentum is given by

Δp = mΔv = m(v_f − v_i),

where vf is the final velocity and vi is the initial velocity. In this example, the velocity just after impact and the change in time are given, so after we solve for Δp, we can use F_net = Δp/Δt to find the force.

Solution: To determine the change in momentum, substitute the values for mass and the initial and final velocities into the equation above.

Δp = m(v_f − v_i); = (0.057 kg)(58 m/s – 0 m/s); = 3.306 kg·m/s ≈ 3.3 kg·m/s

Now we can find the magnitude of the net external force using F_net = Δp/Δt

F_net = Δp/Δt = 3.306/(5 × 10^(− 3)); = 661 N; ≈ 660 N.`;
const HOOKE = `#### Hooke’s Law: How Stiff Are Car Springs?

Problem: What is the force constant for the suspension system of a car, like that shown in Figure, that settles 1.20 cm when an 80.0-kg person gets in?


###### Strategy

Consider the car to be in its equilibrium position x = 0 before the person gets in. The car then settles down 1.20 cm, which means it is displaced to a position x = −1.20×10^−2 m.

At that point, the springs supply a restoring force F equal to the person’s weight

w = mg = (80.0 kg)(9.80 m/s^2) = 784 N. We take this force to be F in Hooke’s law.

Knowing F and x, we can then solve for the force constant k.

Solution: Solve Hooke’s law, F = −kx, for k.

k = F/x

Substitute known values and solve for k.

k = (− 784 N)/(− 1.20 × 10^(− 2) m); = 6.53 × 10^4 N/m`;
const CYCLIST = `You may place your origin wherever you would like. You have to make sure that you calculate all distances consistently from your zero and you define one direction as positive and the other as negative. Therefore, it makes sense to choose the easiest axis, direction, and zero. In the example above, we took home to be zero because it allowed us to avoid having to interpret a solution with a negative sign.

###### Calculating Distance and Displacement

Problem: A cyclist rides 3 km west and then turns around and rides 2 km east. (a) What is her displacement? (b) What distance does she ride? (c) What is the magnitude of her displacement?

###### Strategy

To solve this problem, we need to find the difference between the final position and the initial position while taking care to note the direction on the axis. The final position is the sum of the two displacements, Δd_1 and Δd_2.

Solution: 1. Displacement: The rider’s displacement is Δd = d_f − d_0 = − 1 km.
2. Distance: The distance traveled is 3 km + 2 km = 5 km.
3. The magnitude of the displacement is 1 km.`;

const FOOTBALL = `#### Calculating Momentum: A Football Player and a Football

Problem: (a) Calculate the momentum of a 110 kg football player running at 8 m/s. (b) Compare the player’s momentum with the momentum of a 0.410 kg football thrown hard at a speed of 25 m/s.

###### Strategy

No information is given about the direction of the football player or the football, so we can calculate only the magnitude of the momentum, p. (A symbol in italics represents magnitude.) In both parts of this example, the magnitude of momentum can be calculated directly from the definition of momentum:

p = mv

Solution: To find the player’s momentum, substitute the known values for the player’s mass and speed into the equation.

p_player = (110 kg)(8 m/s) = 880 kg ⋅ m/s

Solution: To find the ball’s momentum, substitute the known values for the ball’s mass and speed into the equation.

p_ball = (0.410 kg)(25 m/s) = 10.25 kg ⋅ m/s

The ratio of the player’s momentum to the ball’s momentum is

p_player/p_ball = 880/10.3 = 85.9.`;
const FALLING = `#### Falling Objects

Problem: A person standing on the edge of a high cliff throws a rock straight up with an initial velocity v0 of 13 m/s.

(a) Calculate the position and velocity of the rock at 1.00, 2.00, and 3.00 seconds after it is thrown. Ignore the effect of air resistance.

###### Strategy

Sketch the initial velocity and acceleration vectors and the axes.

Figure: Initial conditions for rock thrown straight up.

List the knowns: time t = 1.00 s, 2.00 s, and 3.00 s; initial velocity v0 = 13 m/s; acceleration a = g = –9.80 m/s^2; and position y0 = 0 m

List the unknowns: y1, y2, and y3; v1, v2, and v3—where 1, 2, 3 refer to times 1.00 s, 2.00 s, and 3.00 s

Choose the equations.

d = d_0 + v_0t + 1/2at^2 becomes y = y_0 + v_0t − 1/2gt^2

v = v_0 + at becomes v = v_0 + − gt

These equations describe the unknowns in terms of knowns only.

Solution: y_1 = 0 + (13.0 m/s)(1.00 s) + ((− 9.80m/s^2)(1.00 s)^2)/2 = 8.10 m; y_2 = 0 + (13.0 m/s)(2.00 s) + ((− 9.80m/s^2)(2.00 s)^2)/2 = 6.40 m; y_3 = 0 + (13.0 m/s)(3.00 s) + ((− 9.80m/s^2)(3.00 s)^2)/2 = − 5.10 m; v_1 = 13.0 m/s + (− 9.80m/s^2)(1.00 s) = 3.20 m/s; v_2 = 13.0 m/s + (− 9.80m/s^2)(2.00 s) = − 6.60 m/s; v_3 = 13.0 m/s + (− 9.80m/s^2)(3.00 s) = − 16.4 m/s`;

const SUBWAY = `#### An Accelerating Subway Train

Problem: A subway train accelerates from rest to 30.0 km/h in 20.0 s. What is the average acceleration during that time interval?

###### Strategy

Start by making a simple sketch.

This problem involves four steps:

1. Convert to units of meters and seconds.
2. Determine the change in velocity.
3. Determine the change in time.
4. Use these values to calculate the average acceleration.

Solution: 1. Identify the knowns. Be sure to read the problem for given information, which may not look like numbers. When the problem states that the train starts from rest, you can write down that the initial velocity is 0 m/s. Therefore, v0 = 0; vf = 30.0 km/h; and Δt = 20.0 s.
2. Convert the units. (30.0 km)/h × (10^3m)/(1 km) × (1 h)/(3600 s) = 8.333 m/s
3. Calculate change in velocity, Δv = v_f– v_0= 8.333 m/s – 0 = + 8.333 m/s, where the plus sign means the change in velocity is to the right.
4. We know Δt, so all we have to do is insert the known values into the formula for average acceleration. a = Δv/Δt = (8.333 m/s)/(20.00 s) = + 0.417m/(s^2)`;

const BIOLOGY = `## 5.2 Passive Transport

Diffusion is a passive process of transport. A single substance tends to move from an area of high concentration to an area of low concentration until the concentration is equal across a space. Water makes up about 60 percent of body mass, and the cell membrane is roughly 8 nm thick.`;

const chunk = (content: string, chunkIndex = 0, documentId = "physics"): IContextChunk => ({
  documentId,
  chunkIndex,
  content,
  title: "Physics",
});

function exampleOf(text: string): IWorkedExample {
  const found = findWorkedExamples([chunk(text)]);
  expect(found).toHaveLength(1);
  return found[0]!;
}

function problemOf(text: string, seed = 1, marks = 3): INumericProblem {
  const problem = makeNumericProblem(exampleOf(text), seeded(seed), marks);
  expect(problem).not.toBeNull();
  return problem!;
}

/** Numbers in the stem, in order ("2,100" → 2100; "3.84 × 10⁸" → 3.84e8). */
function stemNumbers(stem: string): number[] {
  const out: number[] = [];
  const re = /(?<![\w.])\d[\d,]*(?:\.\d+)?/g;
  for (let m = re.exec(stem); m; m = re.exec(stem)) {
    const lit = readQuantity(stem, m.index, true);
    out.push(lit ? lit.value : Number(m[0].replace(/,/g, "")));
    re.lastIndex = lit ? lit.numEnd : m.index + m[0].length;
  }
  return out;
}

const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

describe("the expression parser", () => {
  const cases: [string, number, number[]][] = [
    ["(304 m)/(180 s)", 304 / 180, [1, 0, -1]],
    ["(2.4 m/s)(46 s)", 110.4, [1, 0, 0]],
    ["1.1 × 10^2 m", 110, [1, 0, 0]],
    ["(30.0 km)/h × (10^3m)/(1 km) × (1 h)/(3600 s)", 30 / 3.6, [1, 0, -1]],
    ["((2100 kg)(49 m/s^2) + 650 N)/4", (2100 * 49 + 650) / 4, [1, 1, -2]],
    [
      "(6.67 × 10^(− 11)(N ⋅ m^2)/(kg^2))((5.98 × 10^24 kg)/((3.84 × 10^8 m)^2))",
      (6.67e-11 * 5.98e24) / 3.84e8 ** 2,
      [1, 0, -2],
    ],
    ["√(2.09 × 10^4(m^2)/(s^2))", Math.sqrt(2.09e4), [1, 0, -1]],
    ["(53.0 m)(cos20.0^(∘))", 53 * Math.cos((20 * Math.PI) / 180), [1, 0, 0]],
    ["(1.50 m)(250 N)sin(π/2)", 375, [2, 1, -2]],
    ["4π^2(0.75000 m)/((1.7357 s)^2)", (4 * Math.PI ** 2 * 0.75) / 1.7357 ** 2, [1, 0, -2]],
    ["(0 − 220 rad/s)/(− 300rad/s^2)", 220 / 300, [0, 0, 1]],
    ["(0.4 lb)/(5 lb) × 100%", 0.08, [0, 0, 0]],
    ["(65.0 + 12.0 + 7.0) kg", 84, [0, 1, 0]],
    ["30.0km/h × (1 h)/(3,600 s) × (1, 000 m)/(1 km)", 30 / 3.6, [1, 0, -1]],
    ["4π²(1.0819 m)/((2.4449 s)²)", (4 * Math.PI ** 2 * 1.0819) / 2.4449 ** 2, [1, 0, -2]],
    ["2.920/(4 × 10⁻³)", 730, [0, 0, 0]],
  ];
  it.each(cases)("evaluates %s in SI with its dimensions", (text, si, dims) => {
    const parsed = parseExpression(text);
    expect(parsed).not.toBeNull();
    const v = evaluate(parsed!.node);
    expect(relative(v.si, si)).toBeLessThan(1e-9);
    expect(v.dims.slice(0, 3)).toEqual(dims);
    expect(v.inconsistent).toBe(false);
  });

  it("reads a number's significant figures, rounding step and notation", () => {
    const lits = parseExpression("(2,100 kg)(0.250 mi)(180 s)(6.67 × 10^(− 11))")!.literals;
    expect(lits.map((l) => [l.value, l.sig, l.sci])).toEqual([
      [2100, 2, false],
      [0.25, 3, false],
      [180, 2, false],
      [6.67e-11, 3, true],
    ]);
    expect(lits[1]!.place).toBeCloseTo(0.001, 12);
    expect(lits[2]!.place).toBe(10);
  });

  it("refuses symbols that are not units", () => {
    for (const text of ["v_avgΔt", "(14.3 m/s)t", "π(2.54)^2t", "2a(d − d_0)", "(304 m)/(180 s"]) {
      expect(parseExpression(text)).toBeNull();
    }
  });

  it("reads givens in prose: hyphenated units, unit words, scientific notation", () => {
    const at = (text: string, from: string) => readQuantity(text, text.indexOf(from), true);
    expect(at("an 80.0-kg person", "80")).toMatchObject({ value: 80, unitText: "kg" });
    expect(at("after 46 seconds?", "46")).toMatchObject({ value: 46, unitText: "seconds" });
    expect(at("a distance of 3.84 × 10^8m from", "3.84")).toMatchObject({ value: 3.84e8, unitText: "m" });
    expect(at("at an angle of 49^(∘) north", "49")?.unit?.angle).toBe(true);
  });
});

describe("findWorkedExamples", () => {
  it("finds problem, strategy and solution under the example's heading", () => {
    const ex = exampleOf(VELOCITY);
    expect(ex.title).toBe("Calculating Average Velocity");
    expect(ex.problem).toMatch(/^A student has a displacement of 304 m north/);
    expect(ex.strategy).toMatch(/^We know that the displacement/);
    expect(ex.solution).toMatch(/= 1\.7 m\/s north$/);
    expect(ex.chunkKey).toBe("physics:0");
  });

  it("joins consecutive chunks of a document, dropping the chunker's overlap", () => {
    const cut = VELOCITY.indexOf("Solution:");
    const overlap = VELOCITY.indexOf("We can use the formula");
    const found = findWorkedExamples([
      chunk(VELOCITY.slice(overlap), 8),
      chunk(VELOCITY.slice(0, cut).trim(), 7),
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]!.problem).toMatch(/^A student has a displacement/);
    expect(found[0]!.sources.map((s) => s.chunkKey)).toEqual(["physics:8"]);
    const problem = makeNumericProblem(found[0]!, seeded(3));
    expect(problem?.chunkKey).toBe("physics:8");
  });

  it("reads other textbook layouts: an Example heading and a bold Solution label", () => {
    const text = [
      "### Example 4.2: Braking distance",
      "",
      "A car travelling at 20 m/s brakes with a constant deceleration of 5.0 m/s². How far does it travel before it stops?",
      "",
      "**Solution**",
      "",
      "Using v² = u² + 2as with v = 0: s = u²/(2a) = (20 m/s)²/(2 × 5.0 m/s²) = 40 m",
    ].join("\n");
    const ex = exampleOf(text);
    expect(ex.title).toBe("Example 4.2: Braking distance");
    const problem = makeNumericProblem(ex, seeded(5));
    expect(problem?.formula).toBe("s = u²/(2a)");
    const [u, a] = stemNumbers(problem!.stem);
    expect(relative(problem!.answer.value, u! ** 2 / (2 * a!))).toBeLessThan(1e-9);
  });

  it("finds nothing in a passage without a worked example", () => {
    expect(findWorkedExamples([chunk(BIOLOGY)])).toEqual([]);
    expect(findWorkedExamples([chunk(VELOCITY.slice(0, VELOCITY.indexOf("Solution:")))])).toEqual([]);
  });
});

describe("verification", () => {
  it("accepts an example whose substitution reproduces the book's result", () => {
    const result = analyseWorkedExample(exampleOf(VELOCITY));
    expect(result.ok).toBe(true);
  });

  it("rejects an example whose stated result the arithmetic does not reproduce", () => {
    const result = analyseWorkedExample(exampleOf(VELOCITY.replace("= 1.7 m/s north", "= 2.7 m/s north")));
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/reproduce/) });
  });

  it("rejects a solution number the problem does not give", () => {
    const result = analyseWorkedExample(
      exampleOf(VELOCITY.replace("(304 m)/(180 s) = 1.7", "(306 m)/(180 s) = 1.7")),
    );
    expect(result).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/neither given nor a known constant/),
    });
  });

  it("rejects a given the solution never uses", () => {
    const text = VELOCITY.replace("in 180 s.", "in 180 s carrying a 12 kg backpack.");
    expect(analyseWorkedExample(exampleOf(text))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not used/),
    });
  });

  it("rejects multi-part problems and problems that need their figure", () => {
    expect(analyseWorkedExample(exampleOf(CYCLIST))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/several parts/),
    });
    const figure = VELOCITY.replace("in 180 s.", "in 180 s, as shown in the graph below.");
    expect(analyseWorkedExample(exampleOf(figure))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/figure/),
    });
  });

  it("splits a problem the book solves part by part, and judges each part", () => {
    const parts = findWorkedExamples([chunk(FOOTBALL)]);
    expect(parts.map((p) => p.part)).toEqual(["a", "b"]);
    expect(parts[0]!.problem).toBe("Calculate the momentum of a 110 kg football player running at 8 m/s.");
    expect(parts[0]!.solution).toMatch(/^Solution: To find the player’s momentum/);
    expect(parts[1]!.strategy).toContain("p_player = (110 kg)(8 m/s)");
    expect(analyseWorkedExample(parts[0]!).ok).toBe(true);
    expect(analyseWorkedExample(parts[1]!)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/does not ask for a number/),
    });
    const problem = makeNumericProblem(parts[0]!, seeded(2));
    expect(problem?.formula).toBe("p = mv");
  });

  it("rejects a question that asks for several values at once", () => {
    const found = findWorkedExamples([chunk(FALLING)]);
    expect(found).toHaveLength(1);
    expect(analyseWorkedExample(found[0]!)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/more than one value/),
    });
  });

  it("rejects a second question, and a problem that leans on another example", () => {
    const second = VELOCITY.replace(
      "What was the student's average velocity?",
      "What was the student's average velocity, and what was the average speed?",
    );
    expect(analyseWorkedExample(exampleOf(second))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/more than one question/),
    });
    const previous = VELOCITY.replace(
      "A student has",
      "Using the route from the previous example, a student has",
    );
    expect(analyseWorkedExample(exampleOf(previous))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/figure/),
    });
  });

  it("rejects a value with a unit that appears only in the solution (a figure's, another example's)", () => {
    const text = [
      "Problem: A wire carries a current of 2.0 A across a magnetic field. What is the force on a 0.50 m length of the wire?",
      "",
      "Solution: F = IℓB = (2.0 A)(0.50 m)(1.5 T) = 1.5 N",
    ].join("\n");
    expect(analyseWorkedExample(exampleOf(text))).toMatchObject({
      ok: false,
      reason: "F: 1.5 T is neither given nor a known constant",
    });
  });

  it("states the answer in the unit of the book's last value", () => {
    const text = [
      "Problem: Light passes through two slits separated by 0.0100 mm, and the third bright line forms at an angle of 10.95° from the incident beam. What is the wavelength of the light?",
      "",
      "Solution: λ = dsinθ/m = ((0.0100 mm)(sin 10.95°))/3 = 6.33 × 10^(−4) mm = 633 nm",
    ].join("\n");
    const problem = problemOf(text, 3);
    const [d, angle] = stemNumbers(problem.stem);
    const nm = (d! * 1e-3 * Math.sin((angle! * Math.PI) / 180)) / 3 / 1e-9;
    expect(relative(problem.answer.value, nm)).toBeLessThan(1e-9);
    expect(problem.answer.text).toBe(`${formatSig(nm, 3)} nm`);
    expect(problem.answer.unit).toBe("nm");
  });

  it("traces a given through a unit conversion the solution makes", () => {
    const text = VELOCITY.replace("north in 180 s.", "north in 3.0 min.");
    const problem = problemOf(text, 5);
    const [d, minutes] = stemNumbers(problem.stem);
    expect(relative(problem.answer.value, d! / (minutes! * 60))).toBeLessThan(1e-9);
  });
});

describe("makeNumericProblem", () => {
  it("poses the example with new values and computes the answer", () => {
    const problem = problemOf(VELOCITY, 11);
    expect(problem.stem).toMatch(
      /^A student has a displacement of \d+ m north in \d+ s\. What was the student's average velocity\?$/,
    );
    const [d, t] = stemNumbers(problem.stem);
    expect([d, t]).not.toEqual([304, 180]);
    expect(relative(problem.answer.value, d! / t!)).toBeLessThan(1e-9);
    expect(problem.answer.text).toBe(`${formatSig(d! / t!, 2)} m/s north`);
    expect(problem.formula).toBe("v_avg = Δd/Δt");
    expect(problem.workedSolution).toBe(`v_avg = Δd/Δt = (${d} m)/(${t} s) = ${problem.answer.text}`);
    expect(problem.sourceQuote).toBe("v_avg = Δd/Δt = (304 m)/(180 s) = 1.7 m/s north");
  });

  it("recomputes a multi-step solution through its intermediate results", () => {
    const problem = problemOf(CART, 4);
    const [m1, m2, m3, push, friction] = stemNumbers(problem.stem);
    expect(relative(problem.answer.value, (push! - friction!) / (m1! + m2! + m3!))).toBeLessThan(1e-9);
    expect(problem.workedSolution.split("\n")).toHaveLength(3);
    expect(problem.stem).not.toMatch(/Figure/);
  });

  it("converts, uses trig of a new angle, and keeps constants of nature fixed", () => {
    const pendulum = problemOf(PENDULUM, 2);
    const [cm, period] = stemNumbers(pendulum.stem);
    expect(relative(pendulum.answer.value, (4 * Math.PI ** 2 * (cm! / 100)) / period! ** 2)).toBeLessThan(
      1e-9,
    );
    expect(pendulum.distractors.map((d) => d.slip)).toContain(
      "uses the value in cm without converting it to m",
    );

    const skier = problemOf(SKIER, 9);
    const [mass, angle, friction] = stemNumbers(skier.stem);
    const mu = friction! / (mass! * 9.8 * Math.cos((angle! * Math.PI) / 180));
    expect(relative(skier.answer.value, mu)).toBeLessThan(1e-9);
    expect(skier.formula).toContain(`cos ${angle}°`);

    const kepler = problemOf(KEPLER, 6);
    expect(kepler.stem).toContain("27.3 days");
    expect(kepler.stem).toContain("3.84 × 10⁸ m");
    const altitude = stemNumbers(kepler.stem)[2]!;
    expect(altitude).not.toBe(1500);
    const hours = 27.3 * 24 * ((altitude + 6380) / 3.84e5) ** 1.5;
    expect(relative(kepler.answer.value, hours)).toBeLessThan(1e-9);
  });

  it("keeps the grammar of the stem when a number changes", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const stem = problemOf(HOOKE, seed).stem;
      expect(stem).not.toMatch(/\ban [0-79]|\ba 8/);
    }
  });

  it("derives distinct slip distractors in the key's unit", () => {
    const problem = problemOf(LAYLA, 8);
    const texts = problem.distractors.map((d) => d.text);
    expect(texts.length).toBeGreaterThanOrEqual(3);
    expect(new Set([...texts, problem.answer.text]).size).toBe(texts.length + 1);
    for (const d of problem.distractors) {
      expect(d.text).toMatch(/ m east$/);
      expect(d.slip).not.toMatch(/different concept/);
    }
    expect(problem.distractors[0]!.slip).toMatch(/^leaves out the factor/);
  });

  it("names the slips a student makes", () => {
    const slips = problemOf(VENUS, 1).distractors.map((d) => d.slip);
    expect(slips.some((s) => /when finding Δp/.test(s))).toBe(true);
    const subway = problemOf(VELOCITY, 1).distractors.map((d) => d.slip);
    expect(subway.some((s) => /the ratio is inverted/.test(s))).toBe(true);
  });

  it("turns a unit conversion step into a conversion slip", () => {
    const problem = problemOf(SUBWAY, 4);
    const [kmh, seconds] = stemNumbers(problem.stem);
    expect(relative(problem.answer.value, kmh! / 3.6 / seconds!)).toBeLessThan(1e-9);
    const slip = problem.distractors.find((d) => d.slip === "does not convert km/h to m/s");
    expect(slip && relative(slip.value, kmh! / seconds!)).toBeLessThan(1e-9);
    expect(problem.workedSolution.split("\n")[0]).toMatch(
      /^\(\d+\.\d km\)\/h × \(10³ m\)\/\(1 km\) × \(1 h\)\/\(3600 s\) = /,
    );
  });

  it("writes marking points that add up to the marks", () => {
    for (const marks of [1, 2, 3, 4, 6]) {
      for (const text of [VELOCITY, CART]) {
        const points = problemOf(text, 3, marks).markingPoints;
        expect(points.reduce((n, p) => n + p.marks, 0)).toBe(marks);
        expect(points.at(-1)!.point).toMatch(/^(?:Answer|.*answer)/i);
      }
    }
    expect(problemOf(VELOCITY, 3, 3).markingPoints.map((p) => p.point.split(":")[0]!.split(" ")[0])).toEqual([
      "Uses",
      "Substitutes",
      "Answer",
    ]);
  });

  it("cites an exact line of the chunk it names", () => {
    for (const text of [VELOCITY, LAYLA, CART, PENDULUM, VENUS]) {
      const problem = problemOf(text, 5);
      expect(problem.chunkKey).toBe("physics:0");
      expect(text).toContain(problem.sourceQuote);
    }
  });

  it("is deterministic for a seed", () => {
    const ex = exampleOf(CART);
    expect(makeNumericProblem(ex, seeded(42))).toEqual(makeNumericProblem(ex, seeded(42)));
    expect(makeNumericProblem(ex, seeded(42))?.stem).not.toBe(makeNumericProblem(ex, seeded(43))?.stem);
  });
});

describe("properties over seeds", () => {
  const examples = [VELOCITY, LAYLA, CART, PENDULUM, SKIER, KEPLER, VENUS, HOOKE, SUBWAY].map(exampleOf);

  /** The answer recomputed from the worked solution's last line: its substitution, evaluated. */
  function recomputed(problem: INumericProblem): number {
    const last = problem.workedSolution.split("\n").at(-1)!;
    const sides = last.split(" = ");
    const parsed = parseExpression(sides.at(-2)!);
    if (!parsed) throw new Error(`unparsable substitution: ${sides.at(-2)}`);
    const v = evaluate(parsed.node);
    if (!v.unitful) return v.written;
    const text = problem.answer.text.replace(/^−/, "");
    const unit = readQuantity(text, 0)?.unit?.factor ?? 1;
    return v.si / unit;
  }

  it("the worked solution reproduces the answer, and the options stay distinct", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(...examples), (seed, example) => {
        const problem = makeNumericProblem(example, seeded(seed));
        expect(problem).not.toBeNull();
        const p = problem!;
        // Intermediate values are shown rounded, as in the book: 1.5 % covers that.
        expect(relative(recomputed(p), p.answer.value)).toBeLessThan(0.015);
        const options = [p.answer.text, ...p.distractors.map((d) => d.text)];
        expect(new Set(options).size).toBe(options.length);
        expect(p.distractors.length).toBeGreaterThanOrEqual(3);
        for (const d of p.distractors)
          expect(Math.abs(d.value - p.answer.value)).toBeGreaterThan(0.04 * Math.abs(p.answer.value));
        expect(p.markingPoints.reduce((n, m) => n + m.marks, 0)).toBe(3);
      }),
      { numRuns: 200 },
    );
  });
});

describe("verification over generated examples", () => {
  const example = (d: number, t: number, stated: string) =>
    exampleOf(
      [
        `Problem: A cart rolls ${d} m along a track in ${t} s. What is its average speed?`,
        "",
        `Solution: v_avg = d/t = (${d} m)/(${t} s) = ${stated} m/s`,
      ].join("\n"),
    );
  const distance = fc.integer({ min: 12, max: 950 });
  const time = fc.integer({ min: 11, max: 99 }).map((n) => n / 10);

  it("accepts the book's result when it is right and refuses it when it is off", () => {
    fc.assert(
      fc.property(distance, time, fc.double({ min: 1.2, max: 5, noNaN: true }), (d, t, off) => {
        const right = formatSig(d / t, 2)
          .replace("−", "-")
          .replace(/,/g, "");
        expect(analyseWorkedExample(example(d, t, right)).ok).toBe(true);
        const wrong = formatSig((d / t) * off, 2).replace(/,/g, "");
        expect(analyseWorkedExample(example(d, t, wrong)).ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("answers the new problem with the new values", () => {
    fc.assert(
      fc.property(distance, time, fc.integer({ min: 1, max: 10_000 }), (d, t, seed) => {
        const problem = makeNumericProblem(
          example(d, t, formatSig(d / t, 2).replace(/,/g, "")),
          seeded(seed),
        );
        expect(problem).not.toBeNull();
        const [d2, t2] = stemNumbers(problem!.stem);
        expect(relative(problem!.answer.value, d2! / t2!)).toBeLessThan(1e-9);
        expect(problem!.stem).toMatch(
          /^A cart rolls [\d,.]+ m along a track in [\d.]+ s\. What is its average speed\?$/,
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe("robustness", () => {
  it("never throws on arbitrary text shaped like a worked example", () => {
    const mathy = fc.stringMatching(/^[0-9a-zA-Z ().,;:=×^√π°/+−–-]{0,120}$/);
    fc.assert(
      fc.property(mathy, mathy, fc.integer({ min: 1, max: 1000 }), (problem, solution, seed) => {
        const text = `Problem: ${problem}\n\nSolution: ${solution}`;
        for (const ex of findWorkedExamples([chunk(text)])) {
          const p = makeNumericProblem(ex, seeded(seed));
          if (p) expect(p.distractors.length).toBeGreaterThanOrEqual(3);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("display", () => {
  it("formats significant figures and powers of ten", () => {
    expect(formatSig(1.6889, 2)).toBe("1.7");
    expect(formatSig(110.4, 2, true)).toBe("1.1 × 10²");
    expect(formatSig(-0.0748, 3, true)).toBe("−7.48 × 10⁻²");
    expect(formatSig(25888, 2)).toBe("26,000");
    expect(formatSig(0.359, 3)).toBe("0.359");
  });

  it("tidies the book's notation", () => {
    expect(prettyText("(− 9.80m/s^2)(1.00 s)^2")).toBe("(−9.80m/s²)(1.00 s)²");
    expect(prettyText("6.67 × 10^(− 11) N and 49^(∘)")).toBe("6.67 × 10⁻¹¹ N and 49°");
    expect(prettyText("v^′_2^ = x")).toBe("v′_2 = x");
  });
});
