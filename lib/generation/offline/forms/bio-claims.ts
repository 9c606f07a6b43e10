import type { ITerm } from "@/lib/generation/offline/knowledge";
import { termKey } from "@/lib/generation/offline/knowledge/lexicon";
import { escapeRegExp } from "@/lib/text/regex";
import {
  capital,
  formUseKey,
  type IForm,
  type IFormEnv,
  keywords,
  NO_KIND,
  POSITION_ONLY,
  stripEnd,
  written,
} from "./common";
import { kinship, siblingDefinitions } from "./recall";

/**
 * Remember, short answer (Evaluate until round 10: readers read it as recall): a student's claim that a defined term names the description of a kin
 * term of the chapter ("synchondrosis" for "a cartilaginous joint in which the bones are joined
 * by fibrocartilage" — a symphysis). The two terms are of one kind (same genus or
 * head word, never a part or kind of the other: `mixUp`), so the mix-up is one a student makes; the
 * claim is definitely wrong because the chapter gives the description to the other term. Marks
 * are for the reason: what the term really is (the selected passage's definition) and whose
 * description the student gave.
 */

/**
 * Genera under which one term is often a branch of the other ("ecology" / "biogeography": the
 * study of …; "biotechnology" / "gene targeting": the use of …): not kin enough for a claim that is
 * definitely wrong.
 */
const BROAD_GENUS = new Set([
  "use",
  "study",
  "science",
  "branch",
  "field",
  "method",
  "technique",
  "application",
  "practice",
]);
const CONTRAST = /\b(?:whereas|while|unlike|however|but)\b|;/i;
const NOUN_PHRASE = /^(?:an?|the|any)\s+\p{L}/iu;
const be = (t: Pick<ITerm, "plural">) => (t.plural ? "are" : "is");

/** `term` named in `text`, by its first letters ("fungi" in "a group of fungal …"). */
const named = (text: string, term: string) => {
  const head = escapeRegExp(term.slice(0, Math.max(4, term.length - 2)));
  return new RegExp(`\\b${head}`, "i").test(text);
};

/**
 * The kin term whose description makes the wrong claim about `t`, or null. Kin here is strict:
 * the same genus or the same head word (`kinship` ≥ 2), and neither a part or kind of the other
 * (one named in the other's definition, or a broader term): "zygomycetes" are fungi and the
 * endoplasmic reticulum is part of the endomembrane system, so the other's description is not
 * definitely wrong for them.
 */
export function mixUp(env: IFormEnv, t: ITerm): ITerm | null {
  const broader = env.kb.links.broader;
  const kt = termKey(t.term);
  const kin = siblingDefinitions(env, t, 5).filter((o) => {
    const ko = termKey(o.term);
    return (
      // A description that contrasts two things ("…, whereas a pulse wave …") is not one term's.
      !CONTRAST.test(o.definition) &&
      kinship(t, o) >= 2 &&
      // "outermost layer" / "middle layer": positions, not terms; "a pair of …": no kind.
      !POSITION_ONLY.test(t.term) &&
      !POSITION_ONLY.test(o.term) &&
      ((t.genus !== "" && t.genus === o.genus && !BROAD_GENUS.has(t.genus) && !NO_KIND.test(t.genus)) ||
        (t.head !== "" && t.head === o.head && !NO_KIND.test(t.head))) &&
      !named(t.definition, o.term) &&
      !named(o.definition, t.term) &&
      !broader.get(kt)?.has(ko) &&
      !broader.get(ko)?.has(kt)
    );
  });
  return kin[0] ?? null;
}

export const mixedDefinition: IForm = {
  id: "bio-mixed-definition",
  fits: (type, level) => type === "short" && level === "Remember",
  available: (kb) => kb.terms.length,
  *build(env) {
    const terms = [...env.kb.terms].sort(
      (a, b) => (env.kb.rank.get(a.chunkKey) ?? 99) - (env.kb.rank.get(b.chunkKey) ?? 99),
    );
    if (terms.length === 0) env.trace?.("no defined term in the selection");
    for (const t of terms) {
      if (env.used.has(t.sentence) || env.used.has(formUseKey("bio-mixed-definition", t.sentence))) continue;
      if (!NOUN_PHRASE.test(t.definition)) {
        env.trace?.("definition is not a noun phrase");
        continue;
      }
      const o = mixUp(env, t);
      if (!o) {
        env.trace?.("no kin term with its own definition in the chapter");
        continue;
      }
      const term = capital(t.term);
      // A term matched with a description: no agreement to get wrong between a plural term and a
      // singular description.
      const q = written(env, {
        prompt: `A student writes that “${t.term}” is the term for this description: “${capital(stripEnd(o.definition))}.” Is the student right? Give the reason for your answer.`,
        answer: `No. The student has described ${o.term}, not ${t.term}. ${term} ${be(t)} ${stripEnd(t.definition)}; ${o.term} ${be(o)} ${stripEnd(o.definition)}.`,
        points: [
          { point: `Says the claim is wrong: the description given is that of ${o.term}` },
          { point: `States what ${t.term} ${be(t)}: ${stripEnd(t.definition)}` },
          { point: `Tells the two apart: names the feature that distinguishes ${t.term} from ${o.term}` },
        ],
        keywords: keywords([t.term, t.definition, o.term]),
        sources: [{ chunkKey: t.chunkKey, quote: t.sentence }],
      });
      if (q) yield q;
    }
  },
};
