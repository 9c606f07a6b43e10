import {
  FIXED,
  type IEquation,
  type IQuantity,
  isProperty,
  isWaveSpeedLaw,
} from "@/lib/generation/offline/knowledge/equations";
import { formatSig } from "@/lib/generation/offline/knowledge/numeric/format";
import { prettyMath } from "@/lib/generation/offline/knowledge/numeric/units";
import { andList, formUseKey, type IForm, type IFormEnv, type IOption, mcq, shuffle } from "./common";

/**
 * MCQs from a relation the passages state as an equation ("P = IV", "ΔS = Q/T"):
 *
 * - Remember: "Which equation relates the power P, the current I and the voltage V?" — the key is
 *   the equation as the passage writes it; the wrong options are the same symbols put together
 *   wrongly (a ratio inverted, a square left out or added, a factor dropped), each checked to be
 *   algebraically NOT equivalent to the key (`equivalent`).
 * - Analyze: two quantities of the law change at once and the student combines their effects:
 *   "In circuit B the current is doubled and the voltage is halved. How does the power in B
 *   compare with that in A?" — the key from the exponents, wrong options from named slips (a
 *   square forgotten, an inverse read as direct, one change left out).
 */

/** A law as exponents: subject = coefficient × Π symbol^power. */
export interface ILaw {
  subject: string;
  coefficient: number;
  powers: ReadonlyMap<string, number>;
}

export const lawOf = (eq: IEquation): ILaw => ({
  subject: eq.subject.symbol,
  coefficient: eq.coefficient,
  powers: new Map(eq.factors.map((f) => [f.symbol, f.power])),
});

/**
 * Whether two laws say the same thing, however rearranged: both as "Π symbol^e = c" with the
 * subject's exponent normalised to 1 (ΔS = Q/T and Q = TΔS are one law; ΔS = T/Q is not).
 */
export function equivalent(a: ILaw, b: ILaw): boolean {
  const vec = (l: ILaw) => {
    const v = new Map<string, number>([[l.subject, 1]]);
    for (const [s, p] of l.powers) v.set(s, (v.get(s) ?? 0) - p);
    return { v, c: l.coefficient };
  };
  const va = vec(a);
  const vb = vec(b);
  const pivot = a.subject;
  const ea = va.v.get(pivot) ?? 0;
  const eb = vb.v.get(pivot) ?? 0;
  if (ea === 0 || eb === 0) return false;
  const scale = ea / eb;
  const symbols = new Set([...va.v.keys(), ...vb.v.keys()]);
  for (const s of symbols) if (Math.abs((va.v.get(s) ?? 0) - scale * (vb.v.get(s) ?? 0)) > 1e-9) return false;
  return Math.abs(va.c - vb.c ** scale) < 1e-9 * Math.max(1, Math.abs(va.c));
}

const sym = (s: string) =>
  prettyMath(
    s.replace(/_\(([^)]+)\)|_(\w+)/g, (_m, a: string | undefined, b: string | undefined) => `_${a ?? b}`),
  );

/** "P = V²/R" for display. */
export function showLaw(l: ILaw): string {
  const part = (sign: 1 | -1) =>
    [...l.powers]
      .filter(([, p]) => Math.sign(p) === sign)
      .map(([s, p]) => `${sym(s)}${Math.abs(p) === 1 ? "" : prettyMath(`^${Math.abs(p)}`)}`)
      .join("");
  const num = part(1);
  const den = part(-1);
  const coef = l.coefficient === 1 ? "" : formatSig(l.coefficient, 3);
  const top = `${coef}${num}` || "1";
  const denCount = [...l.powers.values()].filter((p) => p < 0).length;
  return `${sym(l.subject)} = ${den ? `${top}/${denCount > 1 ? `(${den})` : den}` : top}`;
}

const withPower = (l: ILaw, symbol: string, power: number): ILaw => {
  const powers = new Map(l.powers);
  if (power === 0) powers.delete(symbol);
  else powers.set(symbol, power);
  return { ...l, powers };
};

/** Wrong forms of a law, each with the slip it stands for; none equivalent to the law or each other. */
export function wrongLaws(eq: IEquation): IOption[] {
  const law = lawOf(eq);
  const name = (s: string) => eq.factors.find((f) => f.symbol === s)?.name ?? s;
  const factors = [...law.powers.keys()];
  const tries: { law: ILaw; why: string }[] = [];
  for (const s of factors) {
    const p = law.powers.get(s)!;
    tries.push({
      law: withPower(law, s, -p),
      why: `Inverts the ${name(s)}: ${p > 0 ? "divides by" : "multiplies by"} it instead of ${p > 0 ? "multiplying" : "dividing"}.`,
    });
    if (Math.abs(p) === 2)
      tries.push({ law: withPower(law, s, Math.sign(p)), why: `Leaves out the square on the ${name(s)}.` });
  }
  for (const s of factors) {
    const p = law.powers.get(s)!;
    if (Math.abs(p) === 1)
      tries.push({
        law: withPower(law, s, 2 * p),
        why: `Squares the ${name(s)}, which the relation does not.`,
      });
  }
  // Last: "v = 1/(dt)" reads as implausible beside the others.
  if (factors.length >= 2)
    tries.push({
      law: { ...law, powers: new Map([...law.powers].map(([s, p]) => [s, -p])) },
      why: "Turns the whole relation upside down.",
    });
  if (law.coefficient !== 1)
    tries.push({
      law: { ...law, coefficient: 1 },
      why: `Leaves out the factor ${formatSig(law.coefficient, 3)}.`,
    });
  const out: { law: ILaw; why: string }[] = [];
  for (const t of tries) {
    if (t.law.powers.size < 1 || equivalent(law, t.law)) continue;
    if (out.some((o) => equivalent(o.law, t.law))) continue;
    out.push(t);
  }
  return out.map((o) => ({ text: showLaw(o.law), rationale: o.why }));
}

const isGiven = (q: IQuantity) => FIXED[q.symbol]?.name === q.name;
const named = (q: IQuantity) => `the ${q.name} ${sym(q.symbol)}`;

/** Equations not yet asked through `form`, those whose quote the set has not used first. */
function fresh(env: IFormEnv, form: string): IEquation[] {
  const open = env.kb.equations.filter((e) => !env.used.has(formUseKey(form, e.quote)));
  return [...open.filter((e) => !env.used.has(e.quote)), ...open.filter((e) => env.used.has(e.quote))];
}

/** One relation per set of quantities: "P = V²/R" and "R = V²/P" are one law. */
function distinctLaws(eqs: readonly IEquation[]): IEquation[] {
  const out: IEquation[] = [];
  for (const e of eqs) if (!out.some((o) => equivalent(lawOf(o), lawOf(e)))) out.push(e);
  return out;
}

export const equationChoice: IForm = {
  id: "mcq-equation",
  fits: (type, level) => type === "mcq" && level === "Remember",
  available: (kb) => kb.equations.length,
  *build(env) {
    for (const eq of distinctLaws(fresh(env, "mcq-equation"))) {
      const wrong = wrongLaws(eq);
      if (wrong.length < 3) {
        env.trace?.("< 3 wrong arrangements of the equation");
        continue;
      }
      const key = showLaw(lawOf(eq));
      const q = mcq(env, {
        prompt: `Which equation relates ${andList([eq.subject, ...eq.factors].map(named))}?`,
        key: { text: key },
        distractors: wrong.slice(0, 3),
        explanation: `The text gives ${key}: “${eq.quote}”`,
        sources: [{ chunkKey: eq.chunkKey, quote: eq.quote }],
      });
      if (q) yield q;
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Analyze: two changes at once

/** A factor as a fraction n/d. */
interface IRatio {
  n: number;
  d: number;
}
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const ratio = (n: number, d: number): IRatio => {
  const g = gcd(n, d);
  return { n: n / g, d: d / g };
};
const pow = (r: IRatio, e: number): IRatio =>
  e >= 0 ? ratio(r.n ** e, r.d ** e) : ratio(r.d ** -e, r.n ** -e);
const times = (a: IRatio, b: IRatio): IRatio => ratio(a.n * b.n, a.d * b.d);
const same = (a: IRatio, b: IRatio) => a.n === b.n && a.d === b.d;

const WORDS: Record<number, string> = {
  2: "twice",
  3: "three times",
  4: "four times",
};
const PARTS: Record<number, string> = { 2: "half", 3: "one third", 4: "one quarter", 9: "one ninth" };
/** "It becomes four times as large." / "It stays the same." — null for a factor with no plain words. */
export function factorText(r: IRatio): string | null {
  if (r.n === r.d) return "It stays the same.";
  if (r.d === 1) return r.n <= 16 ? `It becomes ${WORDS[r.n] ?? `${r.n} times`} as large.` : null;
  if (r.n === 1 && PARTS[r.d]) return `It becomes ${PARTS[r.d]} as large.`;
  if (r.n <= 16 && r.d <= 16) return `It becomes ${r.n}/${r.d} as large.`;
  return null;
}

const CHANGES: readonly { r: IRatio; verb: string }[] = [
  { r: ratio(2, 1), verb: "doubled" },
  { r: ratio(1, 2), verb: "halved" },
  { r: ratio(3, 1), verb: "tripled" },
];

/** Apply: readers (rounds 9 and 10, both) read scaling by factors as a computation through the law. */
export const equationScaling: IForm = {
  id: "mcq-scaling",
  fits: (type, level) => type === "mcq" && level === "Apply",
  available: (kb) =>
    kb.equations.filter((e) => !isGiven(e.subject) && e.factors.filter((f) => !isGiven(f)).length >= 2)
      .length,
  *build(env) {
    for (const eq of distinctLaws(fresh(env, "mcq-scaling"))) {
      // "c = fλ": the speed of light does not change; f and λ cannot both be set.
      if (isGiven(eq.subject)) {
        env.trace?.("the subject is a constant (c, g)");
        continue;
      }
      // "v = fλ": a wave's speed is set by its medium; changing f and λ independently to change it
      // contradicts the passage (round 13 readers rejected "frequency doubled, wavelength tripled").
      if (isWaveSpeedLaw(eq)) {
        env.trace?.("a wave's speed is set by its medium, not by its frequency and wavelength");
        continue;
      }
      // "k = F/x: the force doubled and the position halved; how does the force constant compare?"
      // (wave 14): a property of the object does not follow the quantities of its defining ratio.
      if (isProperty(eq.subject)) {
        env.trace?.("the subject is a property of the object (capacitance, force constant, density …)");
        continue;
      }
      const varied = eq.factors.filter((f) => !isGiven(f));
      if (varied.length < 2) {
        env.trace?.("fewer than two quantities to change");
        continue;
      }
      const [a, b] = varied as [(typeof varied)[0], (typeof varied)[0]];
      // Change a by ×2 and b by ×½, ×2 or ×3: the first pair whose slips give three other answers.
      const start = Math.floor(env.random() * CHANGES.length);
      let made = false;
      for (let i = 0; i < CHANGES.length && !made; i++) {
        const cb = CHANGES[(start + i) % CHANGES.length]!;
        const ca = CHANGES[0]!;
        const key = times(pow(ca.r, a.power), pow(cb.r, b.power));
        const keyText = factorText(key);
        if (!keyText) continue;
        const plain = (e: number) => Math.sign(e);
        const slips: { r: IRatio; why: string }[] = [
          {
            r: times(pow(ca.r, Math.abs(a.power)), pow(cb.r, Math.abs(b.power))),
            why: "Treats every quantity as directly proportional, ignoring the one the law divides by.",
          },
          {
            r: times(pow(ca.r, plain(a.power)), pow(cb.r, plain(b.power))),
            why: "Forgets the square in the law.",
          },
          { r: pow(ca.r, a.power), why: `Leaves out the change in the ${b.name}.` },
          { r: pow(cb.r, b.power), why: `Leaves out the change in the ${a.name}.` },
          { r: times(pow(ca.r, -a.power), pow(cb.r, -b.power)), why: "Reads the law upside down." },
        ];
        const wrong: IOption[] = [];
        const seen: IRatio[] = [key];
        for (const s of slips) {
          const text = factorText(s.r);
          if (!text || seen.some((x) => same(x, s.r))) continue;
          seen.push(s.r);
          wrong.push({ text, rationale: s.why });
        }
        if (wrong.length < 3) continue;
        made = true;
        const others = eq.factors.filter((f) => f !== a && f !== b && !isGiven(f));
        const kept = others.length
          ? `, and the ${andList(others.map((o) => o.name))} ${others.length > 1 ? "are" : "is"} the same`
          : "";
        const explain = `${showLaw(lawOf(eq))}: the ${a.name} ${ca.verb} multiplies ${sym(eq.subject.symbol)} by ${formatRatio(pow(ca.r, a.power))}, the ${b.name} ${cb.verb} by ${formatRatio(pow(cb.r, b.power))}; together ${formatRatio(key)}.`;
        const q = mcq(env, {
          prompt: `Using ${showLaw(lawOf(eq))}: in situation B the ${a.name} is ${ca.verb} and the ${b.name} is ${cb.verb} compared with situation A${kept}. How does the ${eq.subject.name} in B compare with that in A?`,
          key: { text: keyText },
          distractors: shuffle(wrong.slice(0, 4), env.random).slice(0, 3),
          explanation: explain,
          sources: [{ chunkKey: eq.chunkKey, quote: eq.quote }],
        });
        if (q) yield q;
      }
      if (!made) env.trace?.("< 3 distinct wrong factors");
    }
  },
};

const formatRatio = (r: IRatio) => (r.d === 1 ? `${r.n}` : `${r.n}/${r.d}`);
