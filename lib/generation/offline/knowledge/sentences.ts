import { sentenceSpans } from "@/lib/ingestion/chunk";
import { zonePassage } from "@/lib/ingestion/zones";
import { looksLikeInstruction } from "@/lib/text/injection";
import { contentWords, isStopword, stem } from "@/lib/text/tokenize";
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

/**
 * Wording that leans on text, a scenario or a figure the student has not seen (round 5–6 readers:
 * "The down side is …", "the right sphere", "Your average velocity, however, was zero", "all red
 * lines on the graph", "The fixed ends must be nodes, too"): such a sentence cannot be a question,
 * an option or a claim on its own.
 */
export const NEEDS_CONTEXT = [
  // An opening that names a part of something described before.
  /^(?:the|a)\s+(?:down ?side|up ?side|drawback|difference|answer|result|catch|trick|problem|device|hole|setup|set-up|arrangement|apparatus|situation|scenario|experiment|demonstration)\b/i,
  /^the\s+(?:right|left|top|bottom|upper|lower|other|second|third|fourth|remaining|fixed|two|three|four|same|new|original|final|initial|next|last|previous)\b(?!\s+(?:law|postulate|principle|condition|rule)s?\b)/i,
  // A reader, a narrator or a scene.
  /\b(?:your|our|we|us|i)\b/i,
  // Contrast and continuation that point back.
  /\bhowever\b|\bon the other hand\b|\bin (?:this|that|each|either|both|such) cases?\b|,\s*too\b|\btoo\.$|\bas well\.$|\binstead\b|\bnext\b|\bas an example\b|\bin another\b|\bas before\b|\bagain\b/i,
  // A figure, graph or diagram the question would need.
  /\b(?:shown|pictured|illustrated|depicted|sketched)\b|\bon the (?:left|right|graph|diagram|chart|plot)\b|\b(?:below|above)\.$|\bthe (?:graph|diagram|figure|photo|photograph|picture|image|drawing|illustration|sketch|chart)\b(?!\s+of\b)/i,
];

export const needsContext = (sentence: string) => NEEDS_CONTEXT.some((re) => re.test(sentence));

/**
 * "the puck", "the glass rod", "the sand filter": a definite noun the block introduced earlier as
 * "a puck", "two spheres" belongs to that scene; the sentence cannot be read without it. Nouns
 * introduced in the same sentence are fine ("a first object … the first object").
 */
export function sceneNouns(sentence: string): string[] {
  return nounsAfter(
    sentence,
    /\b(?:a|an|one|two|three|four|some|several)\s+([\p{Ll}-]+)(?:\s+([\p{Ll}-]+))?/gu,
  );
}

/** The noun after a determiner: its next word, or the one after when the next is an adjective. */
function nounsAfter(sentence: string, re: RegExp): string[] {
  const out: string[] = [];
  for (const m of sentence.matchAll(re)) {
    const [a = "", b = ""] = [m[1], m[2]].map((w) => (w ?? "").toLowerCase());
    if (a.length < 3 || isStopword(a)) continue;
    const noun = b.length >= 3 && !isStopword(b) && !/(?:ly|ing|ed|s)$/.test(a) ? b : a;
    if (!/(?:ly|ing|ed)$/.test(noun)) out.push(noun);
  }
  return out;
}

/** Nouns a lesson uses for "any such thing" ("an object … the object"): not a scene's props. */
const GENERAL_NOUNS = new Set(
  "object objects body bodies system systems surface force forces energy particle particles substance material medium field wave waves cell cells organism organisms process quantity".split(
    " ",
  ),
);

export function refersToScene(
  sentence: string,
  introduced: ReadonlySet<string>,
  topicWords: ReadonlySet<string> = new Set(),
): boolean {
  if (introduced.size === 0) return false;
  const own = new Set(sceneNouns(sentence));
  return nounsAfter(sentence, /\bthe\s+([\p{Ll}-]+)(?:\s+([\p{Ll}-]+))?/gu).some(
    (w) => introduced.has(w) && !own.has(w) && !GENERAL_NOUNS.has(w) && !topicWords.has(stem(w)),
  );
}

/** Imperatives (lab steps, study tips): "Make graphs of …", "Think about …", "Describe what …". */
const IMPERATIVE =
  /^(?:think|make|describe|consider|imagine|note|recall|suppose|look|try|take|place|put|use|draw|measure|record|compare|observe|calculate|find|repeat|hold|drop|push|pull|attach|tie|work|hit|click|prepare|set|turn|remember|notice|explain|predict|discuss|write|list|identify|determine|check|start|begin|go|get|let)\b/i;

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
    !IMPERATIVE.test(sentence) &&
    !needsContext(sentence) &&
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
      const introduced = new Set<string>();
      // A noun of the section's or block's title is the lesson's subject, not a scene's prop.
      const topicWords = new Set(contentWords(`${chunk.sectionPath ?? ""} ${block.heading}`).map(stem));
      block.sentences.forEach((text, position) => {
        const scene = refersToScene(text, introduced, topicWords);
        for (const w of sceneNouns(text)) introduced.add(w);
        if (seen.has(text)) return;
        seen.add(text);
        out.push({
          text,
          chunkKey: key,
          heading: block.heading,
          section,
          position,
          sideBox,
          standalone: !scene && isStandalone(text),
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
    // A numbered topic ("10.2 The Cell Cycle") is its numbered section when the passages hold it.
    const number = /(?:^|[\s:])(\d+(?:\.\d+)+)(?=\s|$)/.exec(topic)?.[1];
    if (number) {
      const numbered = [...counts.keys()].filter((k) =>
        (k.split(" > ").pop() ?? "").startsWith(`${number} `),
      );
      if (numbered.length > 0) return new Set(numbered);
    }
    const best = Math.max(0, ...[...counts.keys()].map(score));
    if (best > 0) {
      // "The Cell Cycle" names 10.2 The Cell Cycle, not also 10.4 Cell Cycle Checkpoints: among the
      // titles sharing the most words with the topic, those with the fewest words it does not name.
      const extra = (key: string) => contentWords(key.split(" > ").pop() ?? "").length - score(key);
      const tied = [...counts.keys()].filter((k) => score(k) === best);
      const fewest = Math.min(...tied.map(extra));
      return new Set(tied.filter((k) => extra(k) === fewest));
    }
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
