import { sentenceSpans } from "@/lib/ingestion/chunk";
import { zonePassage } from "@/lib/ingestion/zones";
import { looksLikeInstruction } from "@/lib/text/injection";
import { contentWords, stem } from "@/lib/text/tokenize";
import type { EZone } from "@/types/chunk.types";
import { type IContextChunk, type IContextRef, passageKey } from "@/types/generation.types";

/**
 * The sentences of the selected passages, each with where it stands (passage, heading block,
 * section) and whether it can stand alone as testable content. Everything a question form says
 * about the subject comes from these sentences, so a question can always quote its source.
 */
export interface ISentence {
  text: string;
  chunkKey: string;
  /** Heading of the block the sentence sits in ("" before the first heading of the passage). */
  heading: string;
  /** Last element of the passage's section path, without its number ("Passive Transport"). */
  section: string;
  /** Position of the sentence within its block. */
  position: number;
  /** In a feature box ("Link to Learning", "Career Connection"…): side material, not the lesson. */
  sideBox: boolean;
  /** Can be quoted and tested on its own (see `isStandalone`). */
  standalone: boolean;
}

export const chunkKey = passageKey;

/** Textbook feature boxes whose titles are labels, not concepts. */
export const FEATURE_BOX =
  /^(?:link to learning|visual connection|career connection|everyday connection|evolution connection|scientific method connection|interactive|glossary|key terms|chapter summary|review questions|critical thinking questions|art connection|mini lab|watch physics|tips? for success|fun in physics|snap lab|work in physics|links to physics|boundless|teacher support|check your understanding|virtual physics|real world connections?)\b/i;

/** Sentences that send the reader elsewhere (links, videos, simulations) are not content to test. */
export const NAVIGATION =
  /\b(?:click|visit (?:the|this|our)\b|watch (?:the|this)\b|download|website|web site|this (?:site|link|video|animation|simulation|interactive|activity|lab)|the (?:link|video|animation|simulation)|url|https?:|www\.|openstax|khan academy|phet)\b/i;

/** Text about the book rather than the subject ("we will discuss", "in the previous section"). */
export const META_TEXT =
  /\b(?:we (?:will|shall|now|discussed|learned|saw|have (?:seen|learned|discussed|studied))|let us|let's|you (?:will|can|may|have|learned|saw|might)|in this (?:chapter|section|module|unit)|(?:previous|next|following|earlier|later|last) (?:section|chapter|module|unit|example)|as (?:mentioned|discussed|described|noted|shown|seen) (?:above|earlier|before|previously|in)|see (?:figure|table|section|chapter)|(?:figure|table) \d|this (?:chapter|section|book|text)|the (?:author|text|passage|reading))\b/i;

/** Leftovers of image credits that wrapped onto the next line. */
const ATTRIBUTION =
  /\b(?:department of \w+, [^.]*university|modification of work by|courtesy of|credit:|\(credit)/i;

/** Words that point back to something earlier: a sentence opening with one cannot stand alone. */
export const ANAPHORA =
  /^(?:it|its|this|these|those|they|their|them|there|that|which|such|he|she|his|her|we|you|one|here|another|other|others|the latter|the former|the same|then|thus|therefore|hence|however|also|likewise|similarly|instead|otherwise|in addition|in contrast|in this|in these|in that|as a result|for this reason|for example|for instance|because of this|this is|both of|each of)\b/i;

/** "… is required for this process", "these structures …": a determiner pointing to an earlier sentence. */
const POINTER =
  /\b(?:this|these|those)\s+(?!is\b|are\b|was\b|were\b|means\b|way\b)\p{L}+|\bthe (?:latter|former|above|following)\b|\bsuch (?:a|an)\b/iu;

const WORKED_EXAMPLE_LABEL =
  /^(?:problem|solution|strategy|discussion|answer|check your understanding|known|unknown|given|find|significance)\s*:/i;

/** Symbols that mark an equation line or an equation remnant. */
export function mathDensity(text: string): number {
  const symbols = (text.match(/[=^_√∑∫×÷±→←≈≤≥]|\/\(|\)\//g) ?? []).length;
  return symbols / Math.max(1, text.split(/\s+/).length);
}

export function hasBalancedBrackets(text: string): boolean {
  const pairs: [string, string][] = [
    ["(", ")"],
    ["[", "]"],
    ["“", "”"],
  ];
  return (
    pairs.every(([o, c]) => text.split(o).length === text.split(c).length) &&
    (text.match(/"/g) ?? []).length % 2 === 0
  );
}

/**
 * A sentence that can be quoted and tested on its own: a complete sentence of reasonable length,
 * not a caption, heading, table row, navigation, meta text, worked-example label, equation or
 * instruction to a language model, and not opening with a word that points back to a previous
 * sentence ("This", "Another", "They").
 */
export function isStandalone(sentence: string): boolean {
  const words = sentence.split(/\s+/).length;
  return (
    words >= 6 &&
    words <= 55 &&
    /^[\p{Lu}\p{N}]/u.test(sentence) &&
    /[.!]$/.test(sentence) &&
    !sentence.endsWith("?") &&
    !/^(?:figure|table|fig\.)\b/i.test(sentence) &&
    !sentence.startsWith("#") &&
    !sentence.includes("|") &&
    !sentence.includes(":") &&
    !WORKED_EXAMPLE_LABEL.test(sentence) &&
    !NAVIGATION.test(sentence) &&
    !META_TEXT.test(sentence) &&
    !ATTRIBUTION.test(sentence) &&
    !ANAPHORA.test(sentence) &&
    !POINTER.test(sentence) &&
    !/\b(?:figure|table|fig\.)\b/i.test(sentence) &&
    mathDensity(sentence) < 0.08 &&
    hasBalancedBrackets(sentence) &&
    !looksLikeInstruction(sentence) &&
    contentWords(sentence).length >= 4
  );
}

function cleanSentence(s: string): string {
  return s
    .replace(/^\s*(?:[-*]|\d+\.)\s+/, "")
    .replace(/\s*\((?:Figure|Table)[^)]*\)/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Sentences of a passage, in order, without Markdown headings, tables, captions or credits. */
export function passageSentences(content: string): string[] {
  return passageBlocks(content).flatMap((b) => b.sentences);
}

interface IBlock {
  heading: string;
  sentences: string[];
}

/** The passage cut at its Markdown headings: each block's heading and sentences. */
export function passageBlocks(content: string): IBlock[] {
  const blocks: { heading: string; lines: string[] }[] = [{ heading: "", lines: [] }];
  for (const line of content.split("\n")) {
    const h = /^\s*#+\s*(.*)$/.exec(line);
    if (h) blocks.push({ heading: (h[1] ?? "").trim(), lines: [] });
    else blocks.at(-1)!.lines.push(line);
  }
  return blocks.map((b) => {
    // Paragraphs stay apart so a sentence never runs across a blank line or a caption.
    const paragraphs = b.lines
      .join("\n")
      .split(/\n\s*\n/)
      .filter((p) => !/^\s*(?:\||Figure:|Table:)/.test(p))
      .map((p) => p.replace(/\(credit[^)]*\)/gi, "").replace(/\bCredit:.*$/gim, ""));
    const sentences = paragraphs.flatMap((p) =>
      sentenceSpans(p, 0, p.length)
        .map(([s, e]) => cleanSentence(p.slice(s, e)))
        .filter((s) => s.length > 0 && !ATTRIBUTION.test(s)),
    );
    return { heading: b.heading, sentences };
  });
}

const sectionOf = (c: IContextChunk) =>
  (c.sectionPath?.split(" > ").pop() ?? c.title ?? "")
    .replace(/^(?:chapter\s+)?\d+(?:\.\d+)*:?\s*/i, "")
    .trim();

/**
 * Zones a question may be written from: the lesson's prose, its definitions, summaries and
 * glossaries. Lab steps, media instructions, captions and credits, feature boxes, the book's own
 * questions and worked-example set-ups are not (teachers rejected the questions made of them).
 */
export const QUESTION_WORTHY_ZONES: ReadonlySet<EZone> = new Set([
  "exposition",
  "definition",
  "summary",
  "glossary",
]);

/**
 * The passage with the text of every other zone cut out (each cut leaves a paragraph break, so
 * no sentence runs across it; headings stay). Zones come with the passage, or are read from its
 * text by the ingestion's classifier.
 */
export function questionWorthyText(
  chunk: IContextChunk,
  zones: ReadonlySet<EZone> = QUESTION_WORTHY_ZONES,
): string {
  const spans =
    chunk.zoneSpans && chunk.zoneSpans.length > 0
      ? chunk.zoneSpans
      : zonePassage(chunk.content, chunk.sectionPath).spans;
  let out = "";
  let at = 0;
  for (const [start, end, zone] of spans) {
    if (start < at || end > chunk.content.length) continue;
    out += chunk.content.slice(at, start);
    const text = chunk.content.slice(start, end);
    // Headings stay (they name the block a sentence sits in); the zone's text goes.
    const headings = text.split("\n").filter((l) => /^\s*#/.test(l));
    out += zones.has(zone) ? text : `\n\n${headings.map((h) => `${h}\n\n`).join("")}`;
    at = end;
  }
  return out + chunk.content.slice(at);
}

/**
 * Every question-worthy sentence of the passages (see `questionWorthyText`) with its place and
 * standalone verdict, deduplicated.
 */
export function collectSentences(chunks: readonly IContextChunk[]): ISentence[] {
  const out: ISentence[] = [];
  const seen = new Set<string>();
  for (const chunk of chunks) {
    const key = chunkKey(chunk);
    const section = sectionOf(chunk);
    // A passage that starts inside a feature box inherits it from its section path.
    const pathBox = (chunk.sectionPath ?? "").split(" > ").some((p) => FEATURE_BOX.test(p.trim()));
    for (const block of passageBlocks(questionWorthyText(chunk))) {
      const sideBox = block.heading ? FEATURE_BOX.test(block.heading) : pathBox;
      block.sentences.forEach((text, position) => {
        if (seen.has(text)) return;
        seen.add(text);
        out.push({
          text,
          chunkKey: key,
          heading: block.heading,
          section,
          position,
          sideBox,
          standalone: isStandalone(text),
        });
      });
    }
  }
  return out;
}

/** The section a passage belongs to: the first two parts of its path ("Chapter 5: … > 5.2 Passive Transport"). */
export const sectionKeyOf = (c: { sectionPath?: string }) =>
  (c.sectionPath ?? "").split(" > ").slice(0, 2).join(" > ");

/**
 * The sections the selection is about. With a topic (the teacher's query, a section title): the
 * sections whose titles share the most words with it. Else, or when no title matches: the top
 * passage's section and any holding at least two passages and a seventh of them (a whole chapter
 * selected: all its sections). Questions come from these; a stray passage of a neighbouring
 * section only supplies wrong options.
 */
export function mainSections(chunks: readonly { sectionPath?: string }[], topic?: string): Set<string> {
  if (chunks.length === 0) return new Set();
  const counts = new Map<string, number>();
  for (const c of chunks) counts.set(sectionKeyOf(c), (counts.get(sectionKeyOf(c)) ?? 0) + 1);
  if (topic) {
    const wanted = new Set(contentWords(topic).map(stem));
    const score = (key: string) => {
      const title = key.split(" > ").pop() ?? "";
      return contentWords(title)
        .map(stem)
        .filter((w) => wanted.has(w)).length;
    };
    const best = Math.max(0, ...[...counts.keys()].map(score));
    if (best > 0) return new Set([...counts.keys()].filter((k) => score(k) === best));
  }
  return new Set([
    sectionKeyOf(chunks[0]!),
    ...[...counts].filter(([, n]) => (n >= 2 || chunks.length < 4) && n >= chunks.length / 7).map(([k]) => k),
  ]);
}

/** A citation of a passage with the sentence(s) that support the question. */
export function contextRef(c: IContextChunk, quote: string): IContextRef {
  return {
    documentId: c.documentId,
    chunkIndex: c.chunkIndex,
    title: c.title,
    ...(c.pageStart !== undefined ? { pageStart: c.pageStart } : {}),
    ...(c.pageEnd !== undefined ? { pageEnd: c.pageEnd } : {}),
    quote,
  };
}
