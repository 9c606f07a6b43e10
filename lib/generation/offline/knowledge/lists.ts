import { isNounPhrase } from "@/lib/text/phrases";
import { contentWords } from "@/lib/text/tokenize";
import type { ISentence } from "./sentences";

/**
 * Enumerations the passages state: "the principal components are lipids, proteins, and
 * carbohydrates", "factors such as temperature, particle size and …", "three types of X: A, B and
 * C". A whole with its parts is what a model-design (Create) question credits, and members of one
 * list are siblings: the same kind of thing.
 */
export interface IEnumeration {
  /** What the members are parts, kinds or examples of ("the plasma membrane's principal components"). */
  whole: string;
  relation: "parts" | "kinds" | "examples";
  members: string[];
  sentence: string;
  chunkKey: string;
}

const MEMBERS = String.raw`((?:[\p{L}\p{N}][\p{L}\p{N}'’ ()+-]{1,40}?,\s+){1,6}(?:and|or)\s+[\p{L}\p{N}][\p{L}\p{N}'’ ()+-]{1,40}?)`;

const PATTERNS: { re: RegExp; relation: IEnumeration["relation"] }[] = [
  {
    re: new RegExp(
      String.raw`^(.{6,80}?)\s+(?:consists? of|is made (?:up )?of|are made (?:up )?of|is composed of|are composed of|comprises?|contains?|has|have)\s+(?:the following:?\s+)?${MEMBERS}[.;]?$`,
      "iu",
    ),
    relation: "parts",
  },
  {
    re: new RegExp(
      String.raw`^(?:the |some |other )?(?:two|three|four|five|six|several|main|major|principal|primary|common)?\s*(?:main |major |principal |basic |common )?(types?|kinds?|classes|forms|stages|phases|steps|parts|components|groups|categories|examples) of (.{3,60}?)\s+(?:are|include)(?: known)?:?\s+${MEMBERS}[.;]?$`,
      "iu",
    ),
    relation: "kinds",
  },
  {
    re: new RegExp(String.raw`^(.{6,80}?)\s+(?:includes?|such as)\s+${MEMBERS}[.;]?$`, "iu"),
    relation: "examples",
  },
];

function cleanMember(m: string): string | null {
  const t = m
    .trim()
    .replace(/^(?:the|a|an)\s+/i, "")
    // "several skull bones": a quantifier is not part of the member's name.
    .replace(/^(?:several|some|many|various|most|certain)\s+/i, "")
    .replace(/\s*\([^)]*\)\s*$/, "")
    .trim();
  if (t.split(/\s+/).length > 5 || contentWords(t).length === 0) return null;
  return isNounPhrase(t) ? t : null;
}

export function extractEnumerations(sentences: readonly ISentence[]): IEnumeration[] {
  const out: IEnumeration[] = [];
  for (const s of sentences) {
    if (!s.standalone || s.sideBox) continue;
    const text = s.text.replace(/[.!]$/, "");
    for (const { re, relation } of PATTERNS) {
      const m = re.exec(text);
      if (!m) continue;
      // "Some examples of second messengers are …": examples, read like kinds.
      const kinds = relation === "kinds";
      const whole = (kinds ? m[2] : m[1])!.trim();
      const list = (kinds ? m[3] : m[2])!;
      const members = list
        .split(/,\s+(?:and\s+|or\s+)?|\s+(?:and|or)\s+/)
        .map(cleanMember)
        .filter((x): x is string => !!x);
      if (members.length >= 3 && members.length === new Set(members).size && contentWords(whole).length > 0) {
        const rel = kinds && /^examples$/i.test(m[1]!) ? "examples" : relation;
        out.push({ whole, relation: rel, members, sentence: s.text, chunkKey: s.chunkKey });
        break;
      }
    }
  }
  return out;
}
