import { contentWords } from "@/lib/text/tokenize";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import { positionalReference } from "./follow-up-position";

/**
 * Conversation context for the builder session: a teacher refines a search in short follow-ups
 * ("harder ones", "more on the light reactions", "the next section", "not the calvin cycle") that
 * mean nothing on their own. This resolves a follow-up against the session's previous turns into
 * a standalone query plus what the pipeline must do besides searching it: shift the Bloom levels,
 * move to the neighbouring section, leave out a topic. Pure and deterministic; every decision
 * leaves a reason.
 */

/** What the client keeps of each earlier turn (the response's `session.turn`). */
export interface ISessionTurn {
  /** What the teacher typed. */
  query: string;
  /** The standalone query it was resolved to. */
  resolvedQuery: string;
  /** Topic words the search used (instructions and scaffolding removed). */
  topic: string;
  bloomTargets?: EBloomLevel[];
  /** Where the best passage of that turn came from (for "the next section"). */
  anchor?: { documentId: string; chapterNumber: number | null; sectionPath: string };
  /** Topics the teacher excluded, still in force. */
  excluded?: string[];
  /**
   * The turn's results in the order the teacher saw them (by relevance), for "the second one",
   * "the last two", "not the first".
   */
  results?: { documentId: string; chunkIndex: number; chapterNumber: number | null; sectionPath: string }[];
}

export type ENavigation = "next-section" | "previous-section" | "next-chapter" | "previous-chapter";

export interface IFollowUp {
  /** True when the query leaned on earlier turns. */
  isFollowUp: boolean;
  /** The standalone query to classify and search. */
  query: string;
  /** Topics to keep out of the results (this turn's and earlier ones still in force). */
  excluded: string[];
  /** Bloom levels shifted from the previous turn ("harder ones"), if asked. */
  bloomTargets?: EBloomLevel[];
  navigation?: ENavigation;
  /** The previous turn's query, searched beside a refinement so it stays in that topic's area. */
  context?: string;
  /** The previous turn's best passage, for navigation. */
  anchor?: ISessionTurn["anchor"];
  reasons: string[];
}

const HARDER_RE =
  /^(?:(?:and|now|ok|okay|also)\s+)?(?:make (?:it|them) )?(?:harder|more (?:difficult|challenging|advanced)|tougher|higher[- ]order|more analytical)(?:\s+(?:ones?|questions?|please|version))?[.!]?$/i;
const EASIER_RE =
  /^(?:(?:and|now|ok|okay|also)\s+)?(?:make (?:it|them) )?(?:easier|simpler|more basic|less difficult|lower[- ]level)(?:\s+(?:ones?|questions?|please|version))?[.!]?$/i;
const NAVIGATION: [RegExp, ENavigation][] = [
  [/^(?:(?:and|now|ok|okay)\s+)?(?:the\s+)?(?:next|following)\s+section\b/i, "next-section"],
  [/^(?:(?:and|now|ok|okay)\s+)?(?:the\s+)?(?:previous|preceding|last)\s+section\b/i, "previous-section"],
  [/^(?:(?:and|now|ok|okay)\s+)?(?:the\s+)?(?:next|following)\s+chapter\b/i, "next-chapter"],
  [/^(?:(?:and|now|ok|okay)\s+)?(?:the\s+)?(?:previous|preceding|last)\s+chapter\b/i, "previous-chapter"],
];
/** "not the calvin cycle", "without X", "except X", "but not X", "exclude X", "skip X", "no X". */
const NEGATION_RE =
  /(?:^|[\s,;])(?:but\s+)?(?:not|without|except|excluding|exclude|skip|leave out|no more|no)\s+(?:the\s+|any\s+)?(?:about\s+|on\s+)?(.+?)\s*[.!?]?$/i;
/** "more on X", "what about X", "focus on X", "and X?", "only X", "go deeper into X". */
const REFINE_RE =
  /^(?:(?:and|now|ok|okay|also)\s+)?(?:(?:show|give|find)(?: me)?\s+)?(?:more\s+(?:on|about)|what about|how about|focus(?:ing)? on|only|just|go deeper (?:into|on)|zoom in on|specifically|in particular|more detail on)\s+(?:the\s+)?(.+?)\s*[.!?]?$/i;
/** A pronoun standing for the previous topic ("explain it", "examples of this", "questions on them"). */
const PRONOUN_RE = /\b(?:it|this|that|these|those|them|this topic|that topic|the same topic)\b/i;
/** A follow-up that names nothing new is short. */
const MAX_FOLLOW_UP_WORDS = 8;

function shiftBloom(levels: readonly EBloomLevel[], by: 1 | -1): EBloomLevel[] {
  const shifted = levels.map(
    (l) => BLOOM_LEVELS[Math.min(BLOOM_LEVELS.length - 1, Math.max(0, BLOOM_LEVELS.indexOf(l) + by))]!,
  );
  return [...new Set(shifted)];
}

/** Topic of a turn for carrying forward: its resolved topic words, else its query. */
function topicOf(turn: ISessionTurn): string {
  return turn.topic.trim() || turn.resolvedQuery.trim() || turn.query.trim();
}

/** A result's own heading, without its number: "4.3 Eukaryotic Cells" → "Eukaryotic Cells". */
function headingOf(sectionPath: string): string {
  const last = sectionPath.split(" > ").at(-1) ?? "";
  return last.replace(/^\s*(?:chapter\s+)?[\d.]+\s*[:.)-]?\s*/i, "").trim();
}

const ordinal = (n: number) => {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
};

/**
 * Resolve `query` against the session's earlier turns (oldest first). With no turns, or a query
 * that stands on its own, it comes back unchanged with `isFollowUp: false` (exclusions still in
 * force are carried only through follow-ups).
 */
export function resolveFollowUp(
  query: string,
  turns: readonly ISessionTurn[],
  currentBloom?: readonly EBloomLevel[],
): IFollowUp {
  const q = query.replace(/\s+/g, " ").trim();
  const prev = turns.at(-1);
  if (!prev) return { isFollowUp: false, query: q, excluded: [], reasons: [] };
  const prevTopic = topicOf(prev);
  const carried = prev.excluded ?? [];
  const words = q.split(/\s+/).length;
  const base = { isFollowUp: true, excluded: carried, anchor: prev.anchor } as const;

  const harder = HARDER_RE.test(q);
  if (harder || EASIER_RE.test(q)) {
    const from = currentBloom?.length ? currentBloom : (prev.bloomTargets ?? ["Understand"]);
    const bloomTargets = shiftBloom(from, harder ? 1 : -1);
    return {
      ...base,
      query: prev.resolvedQuery,
      bloomTargets,
      reasons: [
        `"${q}" refines the previous search ("${prev.resolvedQuery}"): Bloom levels ${from.join(", ")} → ${bloomTargets.join(", ")}`,
      ],
    };
  }

  for (const [re, navigation] of NAVIGATION) {
    if (!re.test(q)) continue;
    if (!prev.anchor) break;
    return {
      ...base,
      query: prevTopic,
      navigation,
      reasons: [
        `"${q}": ${navigation.replace("-", " ")} after "${prev.anchor.sectionPath.split(" > ").at(-1)}"`,
      ],
    };
  }

  // "more on the second one", "the last two", "not the first": places in the previous list.
  const positional = prev.results?.length ? positionalReference(q, prev.results.length) : null;
  if (positional && prev.results) {
    const picked = positional.positions.map((i) => ({ at: i + 1, r: prev.results![i]! }));
    const headings = [...new Set(picked.map((p) => headingOf(p.r.sectionPath)).filter(Boolean))];
    const which = picked.map((p) => ordinal(p.at)).join(", ");
    const named = headings.map((h) => `"${h}"`).join(", ") || "their sections";
    if (positional.negated) {
      const excluded = [...new Set([...carried, ...headings])];
      return {
        ...base,
        query: prevTopic,
        excluded,
        reasons: [
          `"${q}": the ${which} result${picked.length > 1 ? "s" : ""} (${named}) left out of "${prevTopic}"`,
        ],
      };
    }
    const first = picked[0]!.r;
    return {
      ...base,
      query: headings.length ? `${headings.join(" ")} ${prevTopic}` : prevTopic,
      context: prev.resolvedQuery,
      anchor: {
        documentId: first.documentId,
        chapterNumber: first.chapterNumber,
        sectionPath: first.sectionPath,
      },
      reasons: [`"${q}": more on the ${which} result${picked.length > 1 ? "s" : ""} (${named})`],
    };
  }

  const negation = q.match(NEGATION_RE);
  const negated = negation?.[1]?.trim();
  if (negated && contentWords(negated).length > 0 && words <= MAX_FOLLOW_UP_WORDS) {
    const before = q
      .slice(0, negation!.index)
      .replace(/[,;]\s*$/, "")
      .trim();
    const positive =
      contentWords(before).length > 0 && !/^(?:and|but|now|ok|okay)$/i.test(before) ? before : "";
    const excluded = [...new Set([...carried, negated])];
    return {
      ...base,
      query: positive ? `${positive} ${prevTopic}`.trim() : prevTopic,
      excluded,
      reasons: [`"${negated}" left out of "${prevTopic}"${positive ? `, focusing on "${positive}"` : ""}`],
    };
  }

  const refine = q.match(REFINE_RE);
  if (refine?.[1] && contentWords(refine[1]).length > 0) {
    const focus = refine[1].trim();
    return {
      ...base,
      query: `${focus} ${prevTopic}`,
      context: prev.resolvedQuery,
      reasons: [`"${focus}" within the previous topic "${prevTopic}"`],
    };
  }

  if (PRONOUN_RE.test(q) && words <= MAX_FOLLOW_UP_WORDS) {
    const replaced = q.replace(PRONOUN_RE, prevTopic);
    return {
      ...base,
      query: replaced,
      context: prev.resolvedQuery,
      reasons: [`"${q.match(PRONOUN_RE)![0]}" read as "${prevTopic}"`],
    };
  }
  return { isFollowUp: false, query: q, excluded: [], reasons: [] };
}

/**
 * True when a passage is mostly about an excluded topic: its heading names every content word of
 * the topic, or its text mentions them together at least twice.
 */
export function isAboutExcluded(
  passage: { content: string; sectionPath: string },
  excluded: readonly string[],
  stemsOf: (text: string) => string[],
): boolean {
  for (const topic of excluded) {
    const want = [...new Set(stemsOf(topic))];
    if (want.length === 0) continue;
    const heading = new Set(stemsOf(passage.sectionPath.split(" > ").slice(1).join(" ")));
    if (want.every((s) => heading.has(s))) return true;
    const body = stemsOf(passage.content);
    const counts = new Map<string, number>();
    for (const s of body) counts.set(s, (counts.get(s) ?? 0) + 1);
    if (want.every((s) => (counts.get(s) ?? 0) >= 2)) return true;
  }
  return false;
}
