import { FIXED, type IEquation, type IFactor } from "@/lib/generation/offline/knowledge/equations";
import { prettyMath } from "@/lib/generation/offline/knowledge/numeric/units";
import { andList, formUseKey, type IForm, type IFormEnv, written } from "./common";

/**
 * Understand, written: put a stated equation into words ("interpreting" in the rubric: from
 * symbols to words). "The passages give the equation a = F_net/m. Explain in words what it tells
 * you about the acceleration: how it varies with each of the net external force and the mass
 * when the other is kept the same." (Not "how X depends on": for F = ma the force does not
 * follow the mass.) The answer is not in the passages' words: each mark
 * is one factor's dependence with the others held fixed, direct or inverse, plain or squared, and
 * what doubling it does. Only products and quotients of named quantities with whole powers ±1, ±2
 * (the extractor has checked the units), two or three of them varied, none a constant (g, c).
 * No sum ("v = v₀ + at" gives no proportion), no long answers (nothing more to say).
 */

const show = (s: string) =>
  prettyMath(s.replace(/\(([^()\s/]+\^\d)\)/g, "$1")).replace(
    /_\(([^)]+)\)|_(\w+)/g,
    (_m, a: string | undefined, b: string | undefined) => `_${a ?? b}`,
  );

const HOW: Record<string, { relation: string; doubling: string }> = {
  "1": { relation: "directly proportional to", doubling: "doubling it doubles" },
  "-1": { relation: "inversely proportional to", doubling: "doubling it halves" },
  "2": { relation: "proportional to the square of", doubling: "doubling it makes four times as large" },
  "-2": {
    relation: "inversely proportional to the square of",
    doubling: "doubling it makes a quarter as large",
  },
};

/** The factors a student can vary: named, not a constant, a whole power of ±1 or ±2, distinct names. */
function varied(eq: IEquation): IFactor[] | null {
  if (FIXED[eq.subject.symbol]?.name === eq.subject.name) return null;
  const fs = eq.factors.filter((f) => FIXED[f.symbol]?.name !== f.name);
  if (fs.length < 2 || fs.length > 3) return null;
  if (fs.some((f) => !HOW[String(f.power)] || !f.name || f.name === eq.subject.name)) return null;
  if (new Set(fs.map((f) => f.name)).size !== fs.length) return null;
  // A sum or a difference is no product of powers ("v = v₀ + at").
  if (/[+−-]\s*[\p{L}(]/u.test(eq.text.split("=").slice(1).join("="))) return null;
  return fs;
}

export const interpretEquation: IForm = {
  id: "interpret-equation",
  fits: (type, level) => type === "short" && level === "Understand",
  available: (kb) => kb.equations.filter((e) => varied(e)).length,
  *build(env: IFormEnv) {
    if (env.kb.equations.length === 0) env.trace?.("interpret: no equation stated with named quantities");
    for (const eq of env.kb.equations) {
      if (env.used.has(formUseKey("interpret-equation", eq.quote))) continue;
      const fs = varied(eq);
      if (!fs) {
        env.trace?.(
          "interpret: not a product of 2–3 named quantities with powers ±1, ±2 (a sum, a constant)",
        );
        continue;
      }
      const y = eq.subject.name;
      const line = (f: IFactor) => {
        const rest = fs.filter((g) => g !== f).map((g) => `the ${g.name}`);
        const how = HOW[String(f.power)]!;
        return {
          text: `With ${andList(rest)} kept the same, the ${y} is ${how.relation} the ${f.name}: ${how.doubling} the ${y}.`,
          point: `The ${y} is ${how.relation} the ${f.name} (${how.doubling} the ${y}) when ${andList(rest)} ${rest.length > 1 ? "are" : "is"} fixed`,
        };
      };
      const lines = fs.map(line);
      const q = written(env, {
        prompt: `The passages give the equation ${show(eq.text)}. Explain in words what it tells you about the ${y}: how it varies with each of ${andList(fs.map((f) => `the ${f.name}`))} when the other${fs.length > 2 ? "s are" : " is"} kept the same.`,
        answer: lines.map((l) => l.text).join(" "),
        points: [
          ...lines.map((l) => ({ point: l.point })),
          {
            point: `States that each dependence holds only while the other ${fs.length > 2 ? "quantities are" : "quantity is"} kept the same`,
          },
        ],
        keywords: [y, ...fs.map((f) => f.name), "proportional"],
        sources: [{ chunkKey: eq.chunkKey, quote: eq.quote }],
      });
      if (q) yield q;
    }
  },
};
