import { FIXED, type IEquation, type IFactor } from "@/lib/generation/offline/knowledge/equations";
import { prettyMath } from "@/lib/generation/offline/knowledge/numeric/units";
import { andList, capital, formUseKey, type IForm, type IFormEnv, written } from "./common";

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

const HOW: Record<string, { relation: string; doubling: (y: string) => string }> = {
  "1": { relation: "directly proportional to", doubling: (y) => `doubles the ${y}` },
  "-1": { relation: "inversely proportional to", doubling: (y) => `halves the ${y}` },
  "2": { relation: "proportional to the square of", doubling: (y) => `makes the ${y} four times as large` },
  "-2": {
    relation: "inversely proportional to the square of",
    doubling: (y) => `makes the ${y} a quarter as large`,
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
      // An equation quoted from a worked example's question or strategy ("If the strike lasts 2 ms,
      // what is …? Strategy: use I = ΔQ/Δt") is cited from the lesson's exposition only.
      if (
        /\?|\b(?:Strategy|Solution|Discussion)\b|#{2,}|\b(?:we|you) (?:are given|can use|use|know|need)\b|\bto find\b/i.test(
          eq.quote,
        ) ||
        !env.kb.sentences.some((x) => !x.sideBox && eq.quote.includes(x.text)) ||
        // A line of equations ("v = v_0 + at, or a = v/t when v0 = 0") is a remnant, not a sentence.
        (eq.quote.match(/=/g)?.length ?? 0) > 1 ||
        !/^\p{Lu}\p{Ll}*\s/u.test(eq.quote)
      ) {
        env.trace?.("interpret: the equation is quoted from a worked example, not the exposition");
        continue;
      }
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
          text: `With ${andList(rest)} kept the same, the ${y} is ${how.relation} the ${f.name}: doubling the ${f.name} ${how.doubling(y)}.`,
          point: `The ${y} is ${how.relation} the ${f.name} (${andList(rest)} kept the same)`,
          doubling: `doubling the ${f.name} ${how.doubling(y)}`,
        };
      };
      const lines = fs.map(line);
      // The stem names the task's words (directly / inversely proportional, doubling): the gate
      // grounds a model answer in the cited passages and the stem, and the task is to say which
      // holds for each quantity, not to find the words.
      const q = written(env, {
        prompt: `The passages give the equation ${show(eq.text)}. Explain in words what it says about the ${y}: is it directly or inversely proportional to each of ${andList(fs.map((f) => `the ${f.name}`))} (the other${fs.length > 2 ? "s" : ""} kept the same), and what does doubling each one do to the ${y}?`,
        answer: lines.map((l) => l.text).join(" "),
        points: [
          ...lines.map((l) => ({ point: l.point })),
          { point: capital(andList(lines.map((l) => l.doubling))) },
        ],
        keywords: [y, ...fs.map((f) => f.name), "proportional"],
        sources: [{ chunkKey: eq.chunkKey, quote: eq.quote }],
      });
      if (q) yield q;
    }
  },
};
