import type { IKnowledge } from "@/lib/generation/offline/knowledge";
import { extractMechanisms, type IMechanism } from "@/lib/generation/offline/knowledge/relations";
import { needsContext } from "@/lib/generation/offline/knowledge/sentences";
import { contentWords, stem } from "@/lib/text/tokenize";
import { LEANS_ON_CONTEXT } from "./recall";
import { ABOUT_NAMES } from "./relations";

/**
 * The mechanisms, purposes and consequences the passages state in one sentence beyond "because"
 * ("… by inducing …", "… is due to …", "… so that …", "X causes / prevents Y"): judge-relation's
 * material. The written "Explain how / why …" form built on them (explain-mechanism) was dropped
 * after rounds 9–11: blind readers rejected every one they read (the model answer restated the
 * passage's sentence).
 */

const mechanismsOf = new WeakMap<IKnowledge, IMechanism[]>();
/** The selection's mechanisms, once per knowledge base (read from its sentences). */
export function mechanisms(kb: IKnowledge): IMechanism[] {
  let hit = mechanismsOf.get(kb);
  if (!hit) {
    hit = extractMechanisms(kb.sentences).filter(
      (m) =>
        !LEANS_ON_CONTEXT.test(m.sentence) &&
        !needsContext(m.sentence) &&
        !ABOUT_NAMES.test(m.effect) &&
        // The cause must not already be in the effect's words (else the answer is in the stem).
        newWords(m.cause, m.effect) >= 0.5,
    );
    mechanismsOf.set(kb, hit);
  }
  return hit;
}

/** Share of the cause's content stems that the effect does not already contain. */
function newWords(cause: string, effect: string): number {
  const c = new Set(contentWords(cause).map(stem));
  if (c.size === 0) return 0;
  const e = new Set(contentWords(effect).map(stem));
  return [...c].filter((s) => !e.has(s)).length / c.size;
}
