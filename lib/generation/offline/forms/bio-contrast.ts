import type { IKnowledge } from "@/lib/generation/offline/knowledge";
import { extractContrasts, type IContrast } from "@/lib/generation/offline/knowledge/contrasts";
import { capital, formUseKey, type IForm, type IFormEnv, keywords, lower, stripEnd, written } from "./common";

/**
 * Questions from a comparison the passages state in one sentence ("Shoots exhibit negative
 * gravitropism, whereas roots exhibit positive gravitropism"; `knowledge/contrasts.ts`). The
 * wrong version is the mix-up a student makes, the two features swapped: definitely wrong, as the
 * passage states which feature belongs to which. (A Remember MCQ "Which statement about A and B is
 * correct?" with the swap and "both the same" as options was tried: the gate reads options by
 * their word stems, so every one counted as stated by the passage and it refused them all.)
 */

const cache = new WeakMap<IKnowledge, IContrast[]>();
/** The stated contrasts of the selected passages (computed once per knowledge base). */
export function contrastsOf(kb: IKnowledge): IContrast[] {
  let hit = cache.get(kb);
  if (!hit) {
    hit = extractContrasts(kb.sentences);
    cache.set(kb, hit);
  }
  return hit;
}

const fresh = (env: IFormEnv, id: string, c: IContrast) => !env.used.has(formUseKey(id, c.sentence));
const src = (c: IContrast) => [
  { chunkKey: c.chunkKey, quote: c.sentence },
  ...(c.second ? [{ chunkKey: c.chunkKey, quote: c.second }] : []),
];
/**
 * A subject inside a sentence: the first letter lowered unless the subject is a name ("Lake
 * Victoria", "FSH").
 */
const inner = (subject: string) => (/^\S+\s+\p{Lu}/u.test(subject) ? subject : lower(subject));
const truth = (c: IContrast) =>
  c.unlike
    ? `Unlike ${inner(c.a)}, ${inner(c.b)} ${stripEnd(c.pb)}.`
    : `${capital(c.a)} ${stripEnd(c.pa)}, whereas ${inner(c.b)} ${stripEnd(c.pb)}.`;
/** "A pb, whereas b pa." (or "Unlike b, a pb.") — the two swapped, as a student's claim. */
export const swapped = (c: IContrast) =>
  c.unlike
    ? `Unlike ${inner(c.b)}, ${inner(c.a)} ${stripEnd(c.pb)}.`
    : `${capital(c.a)} ${stripEnd(c.pb)}, whereas ${inner(c.b)} ${stripEnd(c.pa)}.`;

/**
 * Remember, short answer (Evaluate until round 10: readers read it as recall): a student's claim with the two stated features swapped; is the student
 * right, with marks on the reason (which feature belongs to which). The prompt does not ask to
 * "justify" or "explain" the quoted sentence (the gate reads that as copy-paste, the claim having
 * the passage's own words). No MCQ: its options (the swap, "both the same") carry the passage's
 * own words, so the gate counts each as stated by the passage (multiple_correct).
 */
export const swapClaim: IForm = {
  id: "bio-swap-claim",
  fits: (type, level) => level === "Remember" && type === "short",
  available: (kb) => contrastsOf(kb).length,
  *build(env) {
    const all = contrastsOf(env.kb);
    if (all.length === 0) env.trace?.("no stated contrast (A …, whereas B …) with parallel clauses");
    for (const c of all) {
      if (!fresh(env, "bio-swap-claim", c)) continue;
      const claim = swapped(c);
      const q = written(env, {
        prompt: `A student writes: “${claim}” Is the student right? Give the reason for your answer.`,
        // Few words beyond the passage's own: the gate checks that the answer is grounded.
        answer: `Incorrect: the student has them the wrong way round. ${truth(c)}`,
        points: [
          { point: "Identifies the claim as incorrect: the two are the wrong way round" },
          ...(c.unlike
            ? [
                { point: `States that ${inner(c.b)} ${stripEnd(c.pb)}` },
                { point: `States that this sets ${inner(c.b)} apart from ${inner(c.a)}` },
              ]
            : [
                { point: `States that ${inner(c.a)} ${stripEnd(c.pa)}` },
                { point: `States that ${inner(c.b)} ${stripEnd(c.pb)}` },
              ]),
        ],
        keywords: keywords([c.a, c.b, c.pa, c.pb]),
        sources: src(c),
      });
      if (q) yield q;
    }
  },
};
