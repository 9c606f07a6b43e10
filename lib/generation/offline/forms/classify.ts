import type { IKnowledge } from "@/lib/generation/offline/knowledge";
import {
  extractGroups,
  type IClassification,
  type IGroup,
  pairGroups,
} from "@/lib/generation/offline/knowledge/groups";
import { contentWords, stem } from "@/lib/text/tokenize";
import {
  andList,
  formUseKey,
  type IForm,
  type IFormEnv,
  keywords,
  lower,
  mcq,
  shuffle,
  written,
} from "./common";

/**
 * Classification questions from two groups of one kind the passages state with their members
 * (`knowledge/groups.ts`): sort the items into the groups (Understand, MCQ; Analyze, written: the
 * written form also asks for the basis of the sort).
 */

const groupCache = new WeakMap<IKnowledge, IGroup[]>();
/** Groups the selected passages state with their members (computed once per knowledge base). */
export function groupsOf(kb: IKnowledge): IGroup[] {
  let hit = groupCache.get(kb);
  if (!hit) {
    hit = extractGroups(kb.sentences, kb.enumerations);
    groupCache.set(kb, hit);
  }
  return hit;
}

const cache = new WeakMap<IKnowledge, IClassification[]>();
/** Classifications the selected passages state (computed once per knowledge base). */
export function classificationsOf(kb: IKnowledge): IClassification[] {
  let hit = cache.get(kb);
  if (!hit) {
    hit = pairGroups(groupsOf(kb));
    cache.set(kb, hit);
  }
  return hit;
}

const fresh = (env: IFormEnv, id: string, c: IClassification) =>
  !env.used.has(formUseKey(id, c.groups[0].sentence));
const sources = (c: IClassification) => c.groups.map((g) => ({ chunkKey: g.chunkKey, quote: g.sentence }));

/**
 * Understand, MCQ: which sorting of four items into the two stated groups is right? Classifying is
 * Understand in the rubric (labelled Analyze until round 12, when it had never been written).
 */
export const classifySort: IForm = {
  id: "classify-sort",
  fits: (type, level) => type === "mcq" && level === "Understand",
  available: (kb) => classificationsOf(kb).length,
  *build(env) {
    const all = classificationsOf(env.kb);
    if (all.length === 0)
      env.trace?.(
        groupsOf(env.kb).length === 0
          ? "no group stated with its members"
          : "no two stated groups of one kind without a shared member",
      );
    for (const c of all) {
      if (!fresh(env, "classify-sort", c)) {
        env.trace?.("classification already used in the set");
        continue;
      }
      // Items lower-cased as options ("Glucose" opens its sentence), and none sharing a word with
      // the other group's items: "skull bones" (irregular) beside "roof of the skull" (flat).
      const clean = (g: IGroup, other: IGroup): IGroup => {
        const theirs = new Set(other.members.flatMap((m) => contentWords(m).map(stem)));
        return {
          ...g,
          members: g.members.filter((m) => !contentWords(m).some((w) => theirs.has(stem(w)))).map(lower),
        };
      };
      const a = clean(c.groups[0], c.groups[1]);
      const b = clean(c.groups[1], c.groups[0]);
      if (a.members.length < 2 || b.members.length < 2) {
        env.trace?.("a group with < 2 members");
        continue;
      }
      const ia = shuffle(a.members, env.random).slice(0, 2);
      const ib = shuffle(b.members, env.random).slice(0, 2);
      const items = shuffle([...ia, ...ib], env.random);
      const sorting = (inA: string[]) =>
        `${a.name}: ${andList(items.filter((x) => inA.includes(x)))}; ${b.name}: ${andList(items.filter((x) => !inA.includes(x)))}`;
      const wrong = [
        { inA: [ia[0]!, ib[0]!], why: `Swaps ${ia[1]} and ${ib[0]}: ${ib[0]} is one of the ${b.name}.` },
        { inA: [ib[0]!, ib[1]!], why: `Reverses the two groups: ${andList(ia)} are the ${a.name}.` },
        {
          inA: [ia[0]!, ia[1]!, ib[1]!],
          why: `Puts ${ib[1]} with the ${a.name}; the text lists it among the ${b.name}.`,
        },
      ];
      const q = mcq(env, {
        prompt: `Sort ${andList(items)} into two groups: ${a.name} and ${b.name}. Which sorting is correct?`,
        key: { text: sorting(ia) },
        distractors: wrong.map((w) => ({ text: sorting(w.inA), rationale: w.why })),
        explanation: `The passages name ${andList(a.members)} among the ${a.name}, and ${andList(b.members)} among the ${b.name}.`,
        sources: sources(c),
      });
      if (q) yield q;
      else env.trace?.("fewer than three distinct wrong sortings");
    }
  },
};

/** Analyze, written: sort items into the stated groups and say what sets the groups apart. */
export const classifyWritten: IForm = {
  id: "classify-written",
  fits: (type, level) => type !== "mcq" && level === "Analyze",
  available: (kb) => classificationsOf(kb).length,
  *build(env) {
    for (const c of classificationsOf(env.kb)) {
      if (!fresh(env, "classify-written", c)) continue;
      const [a, b] = c.groups;
      const n = env.slot.type === "long" ? 3 : 2;
      const ia = a.members.slice(0, n);
      const ib = b.members.slice(0, n);
      const items = shuffle([...ia, ...ib], env.random);
      const q = written(env, {
        prompt: `Sort these into ${a.name} and ${b.name}: ${andList(items)}. State what the two groups have in common and what decides which group each belongs to.`,
        answer: `${a.name.charAt(0).toUpperCase()}${a.name.slice(1)}: ${andList(ia)}. ${b.name.charAt(0).toUpperCase()}${b.name.slice(1)}: ${andList(ib)}. Both groups are the same kind of thing; the feature in their names (${a.name} / ${b.name}) decides the group.`,
        points: [
          { point: `${a.name}: ${andList(ia)}`, weight: 2 },
          { point: `${b.name}: ${andList(ib)}`, weight: 2 },
          { point: `The basis of the sort: the feature that tells ${a.name} from ${b.name}`, weight: 1 },
        ],
        keywords: keywords([a.name, b.name, ...ia, ...ib]),
        sources: sources(c),
      });
      if (q) yield q;
    }
  },
};
