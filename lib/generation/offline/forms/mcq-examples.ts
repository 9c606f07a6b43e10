import type { IKnowledge } from "@/lib/generation/offline/knowledge";
import { classification, extractGroups, type IGroup } from "@/lib/generation/offline/knowledge/groups";
import { singular, wordNetKinds } from "@/lib/generation/offline/knowledge/lexicon";
import { extractEnumerations } from "@/lib/generation/offline/knowledge/lists";
import { escapeRegExp } from "@/lib/text/regex";
import { contentWords, stem } from "@/lib/text/tokenize";
import { groupsOf } from "./classify";
import { andList, capital, formUseKey, type IForm, type IFormEnv, lower, mcq, shuffle } from "./common";

/**
 * Understand (exemplifying, classifying): "Which of the following is an example of X?" and "Which
 * of the following is NOT an example of X?", from a group the selected passages state with its
 * members ("Glucose, galactose, and fructose are common monosaccharides") and another group of the
 * same kind by the text (set against it in one sentence, or sharing its head word: "bony fishes" /
 * "cartilaginous fishes") whose members are definitely not X ("common disaccharides include lactose, …"). The
 * other group comes from the selection or, for wrong options only, the chapter; the NOT form keys
 * a member of the other group, so that group must be stated in the selection (it is cited).
 */

const ID = "example-mcq";

const wideCache = new WeakMap<IKnowledge, IGroup[]>();
/** Groups the chapter states outside the selection: wrong options only, never cited. */
function chapterGroups(kb: IKnowledge): IGroup[] {
  let hit = wideCache.get(kb);
  if (!hit) {
    const own = new Set(kb.sentences.map((s) => s.text));
    const others = kb.scopeSentences.filter((s) => !own.has(s.text));
    hit = extractGroups(others, extractEnumerations(others));
    wideCache.set(kb, hit);
  }
  return hit;
}

const headOf = (name: string) => singular((name.split(/\s+/).at(-1) ?? "").toLowerCase());

const stems = (s: string) => new Set(contentWords(s).map(stem));
const mentions = (text: string, phrase: string) =>
  new RegExp(`(?:^|[^\\p{L}])${escapeRegExp(phrase)}(?:$|[^\\p{L}])`, "iu").test(text);

/**
 * A member of another group that is definitely not one of `x`: no sentence of the chapter names it
 * with x's name (which could make it one of x after all), WordNet does not know it as a kind of
 * x's head, and it shares no word with x's members or name.
 */
function exclusive(kb: IKnowledge, member: string, x: IGroup, y: IGroup): boolean {
  const head = headOf(x.name);
  // "margarine" offered as not an unsaturated fat: WordNet knows it as a fat. (When both groups
  // share the head, "bony fishes" / "cartilaginous fishes", the head is their common kind.)
  if (head && head !== headOf(y.name) && wordNetKinds(member).has(head)) return false;
  const ms = stems(member);
  if ([...stems(x.name)].some((s) => ms.has(s))) return false;
  if (x.members.some((m) => [...stems(m)].some((s) => ms.has(s)))) return false;
  const names = [x.name, head].filter((n) => n.length > 2);
  return !kb.scopeSentences.some(
    (s) =>
      s.text !== x.sentence &&
      s.text !== y.sentence &&
      mentions(s.text, member) &&
      names.some((n) => mentions(s.text, n)),
  );
}

const option = (m: string) => lower(m);

/** Understand, MCQ: which item is (or is NOT) an example of a group the passages state? */
export const exampleMcq: IForm = {
  id: ID,
  fits: (type, level) => type === "mcq" && level === "Understand",
  available: (kb) => groupsOf(kb).length,
  *build(env: IFormEnv) {
    const { kb } = env;
    const own = groupsOf(kb);
    if (own.length === 0) {
      env.trace?.("no group stated with its members");
      return;
    }
    const ownSet = new Set(own);
    const wide = [...own, ...chapterGroups(kb)];
    for (const x of own) {
      if (env.used.has(formUseKey(ID, x.sentence))) {
        env.trace?.("group already used in the set");
        continue;
      }
      // Of one kind by the text only (set against each other, or a shared head word): WordNet's
      // kinds two levels up made "personality changes" a treatment's sibling on development sets.
      const partners = wide.filter((y) => y !== x && classification(x, y));
      if (partners.length === 0) {
        env.trace?.("no other group of the same kind stated in the selection or chapter");
        continue;
      }
      let built = false;
      for (const y of partners) {
        const others = y.members.filter((m) => exclusive(kb, m, x, y));
        const cited = ownSet.has(y);
        const sources = [x, ...(cited && y.sentence !== x.sentence ? [y] : [])].map((g) => ({
          chunkKey: g.chunkKey,
          quote: g.sentence,
        }));
        const why = (m: string) =>
          `${capital(option(m))} is one of the ${y.name}${cited ? "" : " (stated elsewhere in the chapter)"}, not one of the ${x.name}.`;
        // "… is an example of X?": the key stated as one of X, three of the other group as options.
        if (others.length >= 3) {
          const key = shuffle(x.members, env.random)[0]!;
          const q = mcq(env, {
            prompt: `Which of the following is an example of ${x.name}?`,
            key: { text: option(key) },
            distractors: shuffle(others, env.random)
              .slice(0, 3)
              .map((m) => ({ text: option(m), rationale: why(m) })),
            explanation: `The passages name ${andList(x.members.map(option))} as ${x.name}; ${andList(others.slice(0, 3).map(option))} are ${y.name}.`,
            sources,
          });
          if (q) {
            built = true;
            yield q;
          }
        }
        // "… is NOT an example of X?": three stated members of X and one of the other group, which
        // must then be stated in the selection (the key rests on it).
        if (x.members.length >= 3 && cited && others.length >= 1) {
          const key = shuffle(others, env.random)[0]!;
          const q = mcq(env, {
            prompt: `Which of the following is NOT an example of ${x.name}?`,
            key: { text: option(key) },
            distractors: shuffle(x.members, env.random)
              .slice(0, 3)
              .map((m) => ({
                text: option(m),
                rationale: `The passages name ${option(m)} as one of the ${x.name}.`,
              })),
            explanation: `The passages name ${andList(x.members.map(option))} as ${x.name}; ${option(key)} is one of the ${y.name}.`,
            sources,
          });
          if (q) {
            built = true;
            yield q;
          }
        }
      }
      if (!built) env.trace?.("< 3 members of another group that are definitely not in this one");
    }
  },
};
