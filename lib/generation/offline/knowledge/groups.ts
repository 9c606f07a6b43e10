import nlp from "compromise";
import { isNounPhrase, isPluralNoun } from "@/lib/text/phrases";
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

const LIST = String.raw`((?:[\p{L}\p{N}][\p{L}\p{N}'’ -]{1,30}?,\s+){0,5}[\p{L}\p{N}][\p{L}\p{N}'’ -]{1,30}?,?\s+(?:and|or)\s+[\p{L}\p{N}][\p{L}\p{N}'’ -]{1,30}?)`;
const EXAMPLES_OF = new RegExp(
  String.raw`^${LIST}\s+are (?:all )?(?:examples|types|kinds|forms) of\s+(.{3,50}?)(?:\s*\([^)]*\))?[.]?$`,
  "iu",
);
/** "Glucose, galactose, and fructose are common monosaccharides": members named as a plural kind. */
const ARE_KIND = new RegExp(
  String.raw`^${LIST}\s+are (?:all )?((?:common |typical |familiar )?[\p{L}][\p{L}'’ -]{2,40}?)[.]?$`,
  "iu",
);
/** "Common disaccharides include lactose, maltose, and sucrose" (a clause of its own). */
const INCLUDE = new RegExp(
  String.raw`^((?:common |typical |familiar )?[\p{L}][\p{L}'’ -]{2,40}?)\s+include\s+${LIST}[.]?$`,
  "iu",
);
/** "Most of the limb bones are long bones—for example, the femur, tibia, ulna, and radius." */
const FOR_EXAMPLE = new RegExp(
  String.raw`\b(?:are)\s+((?:common |typical |familiar )?[\p{L}][\p{L}'’ -]{2,40}?)\s*(?:—|–|;|,)\s*for example,?\s+(?:the\s+)?${LIST}$`,
  "iu",
);

/**
 * A plural kind the members are named as ("common monosaccharides"), not a property ("important",
 * "different", "present in …", "found in …"): ends in a plural noun and holds no verb or preposition.
 */
function pluralKind(phrase: string): boolean {
  const words = phrase.trim().split(/\s+/);
  if (words.length > 4) return false;
  if (
    /\b(?:in|on|at|of|by|for|from|with|to|than|as|that|which|who|both|each|not|very|more|less|most|able|also)\b/i.test(
      phrase,
    )
  )
    return false;
  const last = words.at(-1)!;
  return last.length > 3 && isPluralNoun(phrase) && isNounPhrase(phrase) && !nlp(phrase).verbs().found;
}

/** The list's members, or null when one of them is not a short noun phrase ("Many fields, such as …"). */
function splitList(list: string): string[] | null {
  const items = list
    .split(/,\s+(?:and\s+|or\s+)?|\s+(?:and|or)\s+/)
    .map((x) => x.trim().replace(/^(?:the|a|an)\s+/i, ""))
    .filter(Boolean);
  return items.every((x) => x.split(/\s+/).length <= 4 && isNounPhrase(x)) ? items : null;
}

/**
 * The clauses of a sentence that each can state a group: "A, B and C are common monosaccharides;
 * whereas, common disaccharides include D, E and F" is two.
 */
const clauses = (text: string) =>
  text
    .replace(/[.!]$/, "")
    .split(/;\s*(?:whereas|while)?,?\s*|,\s+(?:whereas|while)\s+/i)
    .map((c) => c.trim())
    .filter(Boolean);

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
  const listed = new Set(out.map((g) => g.sentence));
  for (const s of sentences) {
    if (!s.standalone || s.sideBox || listed.has(s.text)) continue;
    for (const clause of clauses(s.text)) {
      const ex = EXAMPLES_OF.exec(clause);
      const kind = ex ? null : ARE_KIND.exec(clause);
      const inc = ex || kind ? null : INCLUDE.exec(clause);
      const fe = ex || kind || inc ? null : FOR_EXAMPLE.exec(clause);
      let name: string | null = null;
      let members: string[] | null = null;
      if (ex) {
        name = groupName(ex[2]!);
        members = splitList(ex[1]!);
      } else if (kind && pluralKind(kind[2]!)) {
        name = groupName(kind[2]!);
        members = splitList(kind[1]!);
      } else if (inc && pluralKind(inc[1]!)) {
        name = groupName(inc[1]!);
        members = splitList(inc[2]!);
      } else if (fe && pluralKind(fe[1]!)) {
        name = groupName(fe[1]!);
        members = splitList(fe[2]!);
      }
      if (name && members && members.length >= 2 && new Set(members).size === members.length)
        out.push({ name, members, sentence: s.text, chunkKey: s.chunkKey });
    }
  }
  return out;
}

const stems = (s: string) => new Set(contentWords(s).map(stem));

/**
 * Two groups as a classification, or null: of one kind (set against each other in one sentence,
 * names sharing their head word or at least half their content words, or `kin` from elsewhere),
 * not the same name nor one name inside the other, and no member in common (either way round, by
 * word stems) nor named in the other group's name.
 */
export function classification(a: IGroup, b: IGroup, kin = false): IClassification | null {
  const sa = stems(a.name);
  const sb = stems(b.name);
  if (sa.size === 0 || sb.size === 0) return null;
  const shared = [...sa].filter((x) => sb.has(x)).length;
  const headA = [...sa].at(-1);
  const headB = [...sb].at(-1);
  // Two groups set against each other in one sentence ("A, B are monosaccharides; whereas
  // disaccharides include C, D") are of one kind by the text's own contrast.
  const sameKind =
    kin ||
    a.sentence === b.sentence ||
    (headA && headA === headB) ||
    shared / Math.min(sa.size, sb.size) >= 0.5;
  if (!sameKind || [...sa].every((x) => sb.has(x)) || [...sb].every((x) => sa.has(x))) return null;
  const ma = a.members.map((m) => [...stems(m)].join(" "));
  const mb = new Set(b.members.map((m) => [...stems(m)].join(" ")));
  if (ma.some((m) => mb.has(m))) return null;
  // A member named in the other group's name would make the sort a matter of wording.
  if (a.members.some((m) => b.name.toLowerCase().includes(m.toLowerCase()))) return null;
  if (b.members.some((m) => a.name.toLowerCase().includes(m.toLowerCase()))) return null;
  return { groups: [a, b] };
}

/** Pairs of the passages' groups that make a classification (see `classification`). */
export function pairGroups(groups: readonly IGroup[]): IClassification[] {
  const out: IClassification[] = [];
  for (let i = 0; i < groups.length; i++)
    for (let j = i + 1; j < groups.length; j++) {
      const c = classification(groups[i]!, groups[j]!);
      if (c) out.push(c);
    }
  return out;
}
