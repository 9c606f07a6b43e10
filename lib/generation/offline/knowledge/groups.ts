import { isNounPhrase } from "@/lib/text/phrases";
import { contentWords, stem } from "@/lib/text/tokenize";
import type { IEnumeration } from "./lists";
import type { ISentence } from "./sentences";

/**
 * Classifications the passages state: a group and its members ("Human diseases caused by DNA
 * viruses include chickenpox, hepatitis B and …"; "lilies, orchids and grasses are examples of
 * monocots"). Two groups of the same kind with no member in common ("… caused by DNA viruses" /
 * "… caused by RNA viruses") make a classification a student can be asked to carry out: sort the
 * items into the groups, or find the item that does not belong and say why.
 */
export interface IGroup {
  /** The group's name as a noun phrase ("human diseases caused by DNA viruses"). */
  name: string;
  members: string[];
  sentence: string;
  chunkKey: string;
}

/** Two groups of one kind, stated in the passages, without a shared member. */
export interface IClassification {
  groups: [IGroup, IGroup];
}

const LEAD =
  /^(?:examples of|some (?:of the )?|the (?:main |major |principal )?|many |several |other |most |common |familiar |modern(?:-day)? |collectively known as [^,]+, )+/i;

/** The group's name cut to a noun phrase, or null when it is not one (a clause, a pronoun). */
export function groupName(whole: string): string | null {
  const t = whole
    .replace(/,\s*$/, "")
    .replace(LEAD, "")
    .replace(/\s+(?:also|usually|typically|generally)$/i, "")
    .trim();
  if (
    !t ||
    t.split(/\s+/).length > 7 ||
    /^(?:it|they|this|these|those|there|which|once|when|if|after|before|while|although|because|since|as|in|on|for|during|with)\b/i.test(
      t,
    )
  )
    return null;
  if (/\b(?:is|are|was|were|do|does|did|not|may|can|has|have)\b/i.test(t)) return null;
  if (!isNounPhrase(t)) return null;
  return t.charAt(0).toLowerCase() === t.charAt(0) || /^\p{Lu}\p{Ll}/u.test(t) ? lowerFirst(t) : t;
}

const lowerFirst = (s: string) => (/^\p{Lu}\p{Ll}/u.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

const EXAMPLES_OF =
  /^((?:[\p{L}\p{N}][\p{L}\p{N}'’ -]{1,30}?,\s+){1,5}(?:and|or)\s+[\p{L}\p{N}][\p{L}\p{N}'’ -]{1,30}?)\s+are (?:all )?(?:examples|types|kinds|forms) of\s+(.{3,50}?)[.]?$/iu;

/** Groups from the passages' enumerations (kinds and examples) and "A, B and C are examples of X". */
export function extractGroups(
  sentences: readonly ISentence[],
  enumerations: readonly IEnumeration[],
): IGroup[] {
  const out: IGroup[] = [];
  for (const e of enumerations) {
    if (e.relation === "parts") continue;
    const name = groupName(e.whole);
    if (name) out.push({ name, members: e.members, sentence: e.sentence, chunkKey: e.chunkKey });
  }
  for (const s of sentences) {
    if (!s.standalone || s.sideBox) continue;
    const m = EXAMPLES_OF.exec(s.text);
    if (!m) continue;
    const name = groupName(m[2]!);
    const members = m[1]!
      .split(/,\s+(?:and\s+|or\s+)?|\s+(?:and|or)\s+/)
      .map((x) => x.trim().replace(/^(?:the|a|an)\s+/i, ""))
      .filter((x) => x && x.split(/\s+/).length <= 4 && isNounPhrase(x));
    if (name && members.length >= 3) out.push({ name, members, sentence: s.text, chunkKey: s.chunkKey });
  }
  return out;
}

const stems = (s: string) => new Set(contentWords(s).map(stem));

/**
 * Pairs of groups of one kind: names sharing their head word (or at least half their content
 * words) but not the same name, and no member in common (either way round, by word stems).
 */
export function pairGroups(groups: readonly IGroup[]): IClassification[] {
  const out: IClassification[] = [];
  for (let i = 0; i < groups.length; i++)
    for (let j = i + 1; j < groups.length; j++) {
      const a = groups[i]!;
      const b = groups[j]!;
      const sa = stems(a.name);
      const sb = stems(b.name);
      if (sa.size === 0 || sb.size === 0) continue;
      const shared = [...sa].filter((x) => sb.has(x)).length;
      const headA = [...sa].at(-1);
      const headB = [...sb].at(-1);
      const sameKind = (headA && headA === headB) || shared / Math.min(sa.size, sb.size) >= 0.5;
      if (!sameKind || [...sa].every((x) => sb.has(x))) continue;
      const ma = a.members.map((m) => [...stems(m)].join(" "));
      const mb = new Set(b.members.map((m) => [...stems(m)].join(" ")));
      if (ma.some((m) => mb.has(m))) continue;
      // A member named in the other group's name would make the sort a matter of wording.
      if (a.members.some((m) => b.name.toLowerCase().includes(m.toLowerCase()))) continue;
      if (b.members.some((m) => a.name.toLowerCase().includes(m.toLowerCase()))) continue;
      out.push({ groups: [a, b] });
    }
  return out;
}
