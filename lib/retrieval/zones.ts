import type { EZone } from "@/types/chunk.types";

/**
 * Zone preferences of a query. By default the lesson comes first (exposition, definitions, worked
 * examples); activities, media, captions and the book's own questions are pushed down unless the
 * query asks for them ("an activity on …", "a video about …", "exercise questions on …"), and an
 * explicit request for one of them lifts it.
 */

export interface IZoneIntent {
  /** Zones the query names: not pushed down. */
  allowed: ReadonlySet<EZone>;
  /** Zones the query asks for outright: lifted. */
  wanted: ReadonlySet<EZone>;
}

/** Score multipliers of the zones a query did not ask for (summaries and glossaries are the lesson's words). */
export const ZONE_PENALTY: Readonly<Record<EZone, number>> = {
  exposition: 1,
  definition: 1,
  worked_example: 1,
  summary: 1,
  glossary: 1,
  feature_box: 0.9,
  activity: 0.6,
  caption: 0.75,
  media: 0.5,
  book_question: 0.5,
};
/** Multiplier of a zone the query asks for outright. */
export const ZONE_WANTED_BOOST = 1.3;

const GENERATE_VERB =
  /\b(?:generate|create|make|write|draft|prepare|frame|design|set|compose|give me \d+|\d+\s+(?:mcqs?|questions?))\b/i;

const MENTIONS: [RegExp, EZone[]][] = [
  [
    /\b(?:activit(?:y|ies)|labs?|experiments?|investigations?|hands[- ]on|practicals?|demonstrations?|procedure)\b/i,
    ["activity"],
  ],
  [/\b(?:videos?|simulations?|animations?|interactives?|websites?|links?|online|phet)\b/i, ["media"]],
  [
    /\b(?:figures?|diagrams?|images?|pictures?|photos?|photographs?|captions?|credits?|tables?)\b/i,
    ["caption"],
  ],
  [
    /\b(?:exercises?|intext|in-text|check your understanding|review questions|end[- ]of[- ](?:chapter|section)|(?:book|textbook|text)(?:'s)? (?:own )?questions|questions (?:from|in) the (?:book|text|textbook|chapter)|practice (?:questions|problems)|back questions)\b/i,
    ["book_question"],
  ],
  [
    /\b(?:careers?|history of|historical|applications?|connections?|do you know|did you know|real[- ]world|everyday)\b/i,
    ["feature_box"],
  ],
];

const WANTS: [RegExp, EZone][] = [
  [
    /\b(?:an?|some|the|any)\s+(?:(?:simple|hands[- ]on|class(?:room)?|group|short|quick|practical)\s+)*(?:activit(?:y|ies)|labs?|experiments?|investigations?|demonstrations?)\b|\bactivities\s+(?:on|about|for)\b/i,
    "activity",
  ],
  [
    /\b(?:an?|some|the|any)\s+(?:(?:short|good|online)\s+)*(?:videos?|simulations?|animations?|interactives?)\b|\b(?:videos?|simulations?|animations?)\s+(?:on|about|of|for|showing)\b/i,
    "media",
  ],
  [/\b(?:an?|the)\s+(?:figure|diagram|image|picture|photo)\s+(?:of|showing)\b/i, "caption"],
];

/** What the query asks for besides the lesson. */
export function zoneIntent(query: string): IZoneIntent {
  const allowed = new Set<EZone>();
  const wanted = new Set<EZone>();
  for (const [re, zones] of MENTIONS) if (re.test(query)) for (const z of zones) allowed.add(z);
  for (const [re, zone] of WANTS) {
    if (re.test(query)) {
      allowed.add(zone);
      wanted.add(zone);
    }
  }
  // "questions on photosynthesis" without a request to write some: the book's own questions.
  if (
    /^\s*(?:(?:show|find|list|get)\s+(?:me\s+)?)?(?:the\s+)?(?:questions|problems|exercises)\s+(?:on|about|from|for)\b/i.test(
      query,
    ) &&
    !GENERATE_VERB.test(query)
  ) {
    allowed.add("book_question");
    wanted.add("book_question");
  }
  if (allowed.has("book_question") && /\b(?:exercises?|intext|in-text|book(?:'s)? questions)\b/i.test(query))
    wanted.add("book_question");
  return { allowed, wanted };
}

/** The factor a passage of `zone` is scored by for a query with `intent`. */
export function zoneFactor(zone: EZone | undefined, intent: IZoneIntent): number {
  if (!zone) return 1;
  if (intent.wanted.has(zone)) return ZONE_WANTED_BOOST;
  if (intent.allowed.has(zone)) return 1;
  return ZONE_PENALTY[zone];
}

/** Text as compared for duplicates: case, spacing and punctuation ignored. */
export function duplicateKey(content: string): string {
  return content
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
