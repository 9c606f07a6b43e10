import type { IKnowledge } from "@/lib/generation/offline/knowledge";
import { sameDims, type TDims } from "@/lib/generation/offline/knowledge/numeric/units";
import { dimsOfUnit, QUANTITY_UNITS, statedUnits } from "@/lib/generation/offline/knowledge/numeric-units";
import { escapeRegExp } from "@/lib/text/regex";
import { clip, formUseKey, type IForm, type IOption, mcq, shuffle } from "./common";
import { usedUnits } from "./recall-units";

/**
 * Remember: "What is the SI unit of angular velocity?" from a passage sentence that states the unit
 * ("The units of angular velocity are radians per second (rad/s).") or uses it with a value in its SI
 * unit ("The speed of sound is 344 m/s.", `recall-units.ts`). Wrong options are units of
 * other quantities, those the passages name first, each of other dimensions than the key and than
 * each other (never N⋅s beside kg⋅m/s, or N⋅m beside J), so exactly one option is right.
 */

const memo = new WeakMap<IKnowledge, ReturnType<typeof statedUnits>>();
/** Units the passages state, then units they show in use ("a speed of 25 m/s"), one per quantity. */
const unitsOf = (kb: IKnowledge) => {
  let hit = memo.get(kb);
  if (!hit) {
    const stated = statedUnits(kb.sentences);
    const named = new Set(stated.map((s) => s.quantity));
    hit = [...stated, ...usedUnits(kb.sentences).filter((u) => !named.has(u.quantity))];
    memo.set(kb, hit);
  }
  return hit;
};

/** Units of other quantities with dimensions unlike the key's and each other's; named ones first. */
export function unitDistractors(
  kb: IKnowledge,
  key: { quantity: string; dims: TDims },
  random: () => number,
  n = 3,
): IOption[] {
  const text = kb.sentences.map((s) => s.text.toLowerCase()).join(" ");
  const named = (q: string) => new RegExp(`\\b${q}\\b`).test(text);
  const candidates = QUANTITY_UNITS.filter((u) => !key.quantity.includes(u.quantity))
    .map((u) => ({ ...u, dims: dimsOfUnit(u.unit), score: (named(u.quantity) ? 2 : 0) + random() }))
    .filter((u): u is typeof u & { dims: TDims } => u.dims !== null && !sameDims(u.dims, key.dims))
    .sort((a, b) => b.score - a.score);
  const out: { quantity: string; unit: string; dims: TDims }[] = [];
  for (const c of candidates) {
    if (out.some((o) => sameDims(o.dims, c.dims))) continue;
    out.push(c);
    if (out.length >= n) break;
  }
  return out.length < n
    ? []
    : out.map((o) => ({
        text: o.unit,
        rationale: `${o.unit} is the unit of ${o.quantity}, not of ${key.quantity}: its dimensions differ.`,
      }));
}

/** "electric charge" is named by "Electrical Charges": each word, with an optional plural or "-al". */
const namePattern = (quantity: string) =>
  new RegExp(
    `\\b${quantity
      .toLowerCase()
      .split(/\s+/)
      .map((w) => `${escapeRegExp(w)}(?:s|es|al)?`)
      .join("\\s+")}\\b`,
  );

/**
 * A unit question is asked only about a quantity the passages are about: named in the title of
 * their section or subsection, or defined in them. Readers
 * rejected "What is the SI unit of speed?" in a section on electromagnetic radiation and "… of
 * mass?" in one on gravitation: a unit met in passing is prior knowledge, not the lesson.
 */
export function topicalQuantity(kb: IKnowledge, quantity: string): boolean {
  const named = namePattern(quantity);
  // The section's title and its subsections' ("2.2 Speed and Velocity > Speed"), not the headings
  // of worked examples and boxes below them ("Solving for Time when …", "Mass and Weight
  // Clarification"), which name what a problem uses.
  // Only the passages questions come from (the topic's section), not other sections in the selection.
  const onTopic = new Set(kb.sentences.map((s) => s.chunkKey));
  const headings = [...onTopic].flatMap((k) => (kb.byKey.get(k)?.sectionPath ?? "").split(" > ").slice(1, 3));
  return (
    headings.some((h) => named.test(h.toLowerCase())) ||
    kb.terms.some((t) => t.term.toLowerCase() === quantity.toLowerCase())
  );
}

export const unitMcq: IForm = {
  id: "mcq-unit",
  fits: (type, level) => type === "mcq" && level === "Remember",
  available: (kb) => unitsOf(kb).length,
  *build(env) {
    const stated = unitsOf(env.kb);
    if (stated.length === 0) env.trace?.("no sentence states or uses a quantity's SI unit");
    for (const s of stated) {
      if (env.used.has(s.sentence) || env.used.has(formUseKey("mcq-unit", s.sentence))) continue;
      if (!topicalQuantity(env.kb, s.quantity)) {
        env.trace?.("the quantity is not what the passages are about (no heading or definition names it)");
        continue;
      }
      const distractors = unitDistractors(env.kb, s, env.random);
      if (distractors.length < 3) {
        env.trace?.("< 3 units of other dimensions");
        continue;
      }
      const q = mcq(env, {
        prompt: `What is the SI unit of ${s.quantity}?`,
        key: { text: s.unit },
        distractors: shuffle(distractors, env.random),
        explanation: `${s.unit} is the SI unit of ${s.quantity}; the text ${/\b(?:units?|measured|expressed)\b/i.test(s.sentence) ? "states it" : "uses it"}: “${clip(s.sentence, 220)}”`,
        sources: [{ chunkKey: s.chunkKey, quote: s.sentence }],
      });
      if (q) yield q;
    }
  },
};
