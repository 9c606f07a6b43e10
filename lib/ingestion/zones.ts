import type { EZone, IChunkDraft, IExtractedDocument, TZoneSpan } from "@/types/chunk.types";
import {
  chunkDocument,
  type IBlock,
  type IChunkOptions,
  joinPages,
  parseBlocks,
  sentenceSpans,
  structureModeOf,
  type TStructureMode,
} from "./chunk";

/**
 * Zones: what each stretch of a textbook is. The lesson (exposition, definitions, worked examples)
 * feeds questions and is what retrieval favours; the material around it (activities and labs,
 * video and simulation instructions, captions and credits, feature boxes, the book's own
 * questions, summaries, glossaries) is kept but marked. Decided from structure and wording only:
 * box titles ("Link to Learning", "Activity 2.1", "Do you know?", "Exercises"), paragraph openers
 * ("Figure:", "Problem:", "Procedure"), option lists and media phrases. Pure functions over the
 * chunker's blocks, so they run wherever chunking runs.
 */

/** Zones whose text a question may be written from, and that retrieval shows by default. */
export const LESSON_ZONES: ReadonlySet<EZone> = new Set(["exposition", "definition", "worked_example"]);

export interface IZoneRun {
  start: number;
  end: number;
  zone: EZone;
}

// ---------------------------------------------------------------------------------------------
// Box titles (a heading, or a heading-like paragraph opener in PDF text)

const TITLE_ZONES: [RegExp, EZone][] = [
  [
    /^(?:section |chapter )?summary\b|^key (?:points|ideas|concepts)\b|^points to remember\b|^what you have (?:learnt|learned)\b|^recap\b/i,
    "summary",
  ],
  [/^(?:glossary|(?:section )?key terms|keywords|key words|vocabulary|terms to know)\b/i, "glossary"],
  [
    /^(?:intext questions|in-text questions|exercises?\b|questions\b|check your understanding|review questions|critical thinking(?: questions)?|test prep|practice problems|problems\b|concept items|performance task|self[- ]check|quick check|grasp check|multiple choice|short answer|extended response|end[- ]of[- ](?:chapter|section)|additional (?:exercises|questions)|assessment|try these|think (?:and|&) answer)/i,
    "book_question",
  ],
  [
    /^(?:activity|activities|snap lab|mini lab|lab\b|lab activity|laboratory|investigation|experiment\b|hands[- ]on|try this|let us (?:do|try)|project\b|group activity|procedure\b)/i,
    "activity",
  ],
  [
    /^(?:link to learning|watch physics|virtual physics|video\b|simulation\b|animation\b|interactive\b|web ?link|phet\b|online resource)/i,
    "media",
  ],
  [
    /^(?:example|worked example|solved example|sample problem|illustration)s?\b(?:\s*\d|\s*$|\s*[:.–—-])|^(?:strategy|solution|discussion)(?:\s+(?:and\s+solution\s+)?for\s+\(\w\))?\s*$/i,
    "worked_example",
  ],
  [
    /^(?:career connections?|careers? in\b|history\s*:|everyday connection|evolution connection|scientific method connection|boxed feature|fun in physics|work in physics|physics in society|links to physics|tips? for success|do you know\b|did you know\b|more to know|think it over|biography|science (?:and|&) society|real[- ]world connections?|connections?\s*:|applications?\s*:|for (?:your )?information|teacher support)/i,
    "feature_box",
  ],
];

/** "Visual Connection" / "Art Connection": a figure with a question about it. */
const FIGURE_QUESTION_BOX = /^(?:visual connection|art connection)\b/i;

/** Headings that continue a worked example rather than end it. */
const EXAMPLE_CONTINUES = /^(?:strategy|solution|discussion|answer|significance|check your answer)\b/i;

/** A title naming a profession: the career boxes of science books ("Health Physicist"). */
const CAREER_TITLE =
  /^(?:[A-Z][\w'’-]+\s+){0,3}(?:physicist|chemist|biologist|engineer|technician|technologist|therapist|scientist|specialist|counselor|pathologist|geneticist|ecologist|physician|nurse|veterinarian|pharmacist|astronomer|meteorologist|sonographer|radiographer|dietitian|nutritionist|microbiologist|botanist|zoologist)s?$/i;

export function zoneOfTitle(title: string): EZone | null {
  const t = title
    .trim()
    .replace(/^\d+(?:\.\d+)*\.?\s+/, "")
    .replace(/^[*_]+|[*_]+$/g, "");
  if (FIGURE_QUESTION_BOX.test(t)) return "feature_box";
  for (const [re, zone] of TITLE_ZONES) if (re.test(t)) return zone;
  if (CAREER_TITLE.test(t)) return "feature_box";
  return null;
}

// ---------------------------------------------------------------------------------------------
// Paragraph cues

const CAPTION_RE =
  /^(?:Figure|Fig\.?|Table|Photo|Image|Plate|Graph|Diagram|Chart|Illustration)\s*(?::|\d+(?:[.-]\d+)*[A-Za-z]?\b)|^\(?(?:credit|credits|source|courtesy|image credit|photo credit|photo|image)s?\s*:/i;
/** A paragraph that opens a worked example or one of its parts. */
const EXAMPLE_PART_RE =
  /^(?:problem|solution|strategy|discussion|answer|given|find|known|unknown|significance|sol(?:ution)?\.|ans\.)\s*[:.–—-]|^(?:example|worked example|solved example|sample problem|illustration)\s*\d+(?:\.\d+)*/i;
const SOLUTION_RE = /^(?:solution|sol\.|answer|ans\.)\s*[:.–—-]?/i;
/** Inline openers of boxes in PDF and plain text, where the title is the paragraph's first line. */
const INLINE_BOX: [RegExp, EZone][] = [
  [/^(?:activity|ACTIVITY)\s*[-–—]?\s*\d+(?:\.\d+)*\b/, "activity"],
  [
    /^(?:example|EXAMPLE|solved example|worked example|illustration)\s*[-–—]?\s*\d+(?:\.\d+)*\b/i,
    "worked_example",
  ],
  [/^(?:do you know|did you know|more to know)\b/i, "feature_box"],
  [
    /^(?:intext questions|in-text questions|exercises?|questions|check your understanding|review questions)\s*(?:\d+(?:\.\d+)*)?\s*[:.]?\s*(?:\n|$)/i,
    "book_question",
  ],
];
const ACTIVITY_CUE_RE =
  /^(?:procedure|materials?(?: needed| required)?|you will need|what you need|apparatus(?: required)?|method|observations?|safety(?: precautions?)?|conclusions?|what to do|steps?)\s*:?\s*(?:\n|$)|\bin this (?:activity|lab|investigation|experiment)\b|\b(?:work with|with) (?:a partner|your partner|a group|your group)\b|\bas directed by (?:your|the) teacher\b|^(?:take|collect|place|pour|fill|heat|observe|record|measure|mark|repeat|note)\b[^.?!]{0,80}\b(?:a|an|the|some|two|three)\b/i;
const MEDIA_CUE_RE =
  /\b(?:th(?:is|e) (?:video|simulation|animation|interactive|site|website|web site|web page|link|applet)|in this (?:simulation|animation|video|interactive)|visit (?:this|the|our)\b|(?:click|tap) (?:on |the |and )|drag\b|hit the\b|press the\b[^.]{0,30}\bbutton|khan academy|phet\b|youtube|https?:\/\/|www\.|watch (?:this|the)\b|for (?:a|an) (?:video|animation|simulation)\b|go to\b[^.]{0,40}\bsite)/i;
/** A video title line: "Intro to vectors & scalars | One-dimensional motion | Physics | Khan Academy". */
const MEDIA_TITLE_RE = /^[^|\n]{2,80}(?:\s\|\s[^|\n]{1,60}){2,}$/;
const OPTION_LINE_RE = /^\s*(?:\(?[a-dA-D][).]|\([ivx]+\)|[ivx]+\))\s+\S/;
const QUESTION_NUMBER_RE = /^\s*(?:Q\.?\s*\d+|\d+[.)]|\(\d+\))\s+\S/;
const LIST_LINE_RE = /^\s*(?:[-*•]|\d+[.)]|\(?[a-z][).])\s+/;

function lines(p: string): string[] {
  return p.split("\n").filter((l) => l.trim());
}

/** The book's own questions: a question with options, or a numbered list of questions. */
export function looksLikeBookQuestions(p: string): boolean {
  const ls = lines(p);
  const options = ls.filter((l) => OPTION_LINE_RE.test(l)).length;
  if (options >= 2 && /\?|_{3,}|\bwhich\b|\bwhat\b|\bstate\b|\bchoose\b/i.test(p)) return true;
  const numbered = ls.filter((l) => QUESTION_NUMBER_RE.test(l));
  if (
    numbered.length >= 2 &&
    numbered.filter((l) =>
      /\?\s*$|^\s*\S+\s+(?:define|explain|state|describe|why|what|how|name|list|give|calculate|find|derive|distinguish|differentiate|compare|draw)\b/i.test(
        l,
      ),
    ).length >= Math.max(2, numbered.length * 0.6)
  )
    return true;
  return /^\s*(?:Q\.?\s*\d+|Question\s*\d+)[.:)]?\s+\S/i.test(p);
}

function isListParagraph(p: string): boolean {
  const ls = lines(p);
  return ls.length > 0 && ls.filter((l) => LIST_LINE_RE.test(l)).length >= Math.ceil(ls.length / 2);
}

const IMPERATIVE_QUESTION_RE =
  /^\s*(?:\(?\d+[.)]\s*)?(?:explain|describe|calculate|find|state|define|name|list|give|compare|distinguish|differentiate|derive|draw|why|what|how|which|when|where|who|show|identify|predict|suggest)\b/i;

function isQuestionParagraph(p: string): boolean {
  const t = p.trim();
  return t.endsWith("?") || looksLikeBookQuestions(p) || IMPERATIVE_QUESTION_RE.test(t);
}

// ---------------------------------------------------------------------------------------------
// Definitions (sentence level, inside exposition)

const DEFINITION_RES: RegExp[] = [
  /\b(?:is|are|was|were)\s+(?:also\s+|often\s+|sometimes\s+|commonly\s+|usually\s+)?(?:called|termed|known as|referred to as|defined as|named|described as)\b/i,
  /\b(?:is|are) defined\b|\bdefined as\b|\bthe definition of\b/i,
  /\bwe (?:call|define|refer to)\b|\b(?:this|these) (?:is|are) (?:called|known as)\b/i,
  /^[^,;]{2,60}\b(?:refers? to|means)\s+(?!that\b)\S+\s+\S/i,
  /[—–]\s?(?:the|a|an) (?:study|science|branch|process|measure|rate) of\b/i,
  /^(?:the |a |an )?(?:[\p{L}\p{N}’'()-]+ ){0,7}(?:is|are) (?:the|a|an) (?:[\p{L}-]+ ){0,3}[\p{L}-]+ (?:of|from which|in which|by which|at which|through which|with which|that|which|between|used to)\b/iu,
  /^(?:the |a |an )?(?:[\p{L}\p{N}’'()-]+ ){1,10}(?:is|are) (?:its|their) [\p{L}-]+(?: [\p{L}-]+)?(?:,[^.]{0,40})?\.?$/iu,
];
/** A sentence about something named before ("This is the…", "It is a…") defines nothing. */
const NOT_A_SUBJECT =
  /^(?:this|it|that|these|those|there|here|which|what|one|each|such|they|he|she|we|you|i)\b/i;

export function isDefinitionSentence(sentence: string): boolean {
  const s = sentence.trim();
  if (s.endsWith("?") || s.split(/\s+/).length < 4 || s.split(/\s+/).length > 60) return false;
  if (NOT_A_SUBJECT.test(s) && !/\b(?:is|are) (?:called|known as|termed)\b/i.test(s)) return false;
  return DEFINITION_RES.some((re) => re.test(s));
}

// ---------------------------------------------------------------------------------------------
// The zoning pass

interface IBox {
  zone: EZone;
  /** Heading level that opened it (an inline opener: 7, closed by any heading). */
  level: number;
  /** Paragraphs seen inside. */
  paras: number;
  /** An activity's list (materials, steps) has been seen: the first prose after it ends the box. */
  sawList: boolean;
  /** A worked example's solution has been seen. */
  sawSolution: boolean;
  /** A figure-question box: a caption, then its question. */
  figureQuestion: boolean;
}

function openBox(zone: EZone, level: number, figureQuestion = false): IBox {
  return { zone, level, paras: 0, sawList: false, sawSolution: false, figureQuestion };
}

/**
 * Zone runs over `text` for its blocks (chunk.ts `parseBlocks`), in order. Runs cover every block
 * (a heading takes its box's zone); exposition paragraphs are split at sentences so definitions,
 * and a stray "visit this site" sentence, get their own runs. `trail` is the heading trail in
 * force before the first block (a passage that starts inside a box).
 */
export function zoneBlocks(
  text: string,
  blocks: readonly IBlock[],
  trail: readonly string[] = [],
  mode: TStructureMode = "markdown",
): IZoneRun[] {
  const runs: IZoneRun[] = [];
  let box: IBox | null = null;
  trail.forEach((title, i) => {
    const zone = zoneOfTitle(title);
    if (zone) box = openBox(zone, i + 1, FIGURE_QUESTION_BOX.test(title.trim()));
  });
  /** A heading that opened no box: its first paragraph may reveal one (an example's "Problem:"). */
  let pendingHeading: { run: IZoneRun; level: number } | null = null;

  for (const block of blocks) {
    if (block.heading) {
      const { level, title } = block.heading;
      const current = box as IBox | null;
      if (current && current.zone === "worked_example" && EXAMPLE_CONTINUES.test(title)) {
        // "Strategy" opens the next part of an example (PDF text may have lost its title).
        if (/^strategy\b/i.test(title)) current.sawSolution = false;
        runs.push({ start: block.start, end: block.end, zone: "worked_example" });
        pendingHeading = null;
        continue;
      }
      // A box ends at the next heading, except the parts of a collection (a summary's or an
      // exercise set's sub-headings) inside it.
      const container = current && ["summary", "glossary", "book_question"].includes(current.zone);
      if (current && (level <= current.level || !container)) box = null;
      const zone = zoneOfTitle(title);
      if (zone) box = openBox(zone, level, FIGURE_QUESTION_BOX.test(title.trim()));
      const run: IZoneRun = {
        start: block.start,
        end: block.end,
        zone: (box as IBox | null)?.zone ?? "exposition",
      };
      runs.push(run);
      pendingHeading = zone ? null : { run, level };
      continue;
    }
    const p = text.slice(block.start, block.end);
    const pending = pendingHeading;
    pendingHeading = null;

    // Heading-less box openers (PDF, plain text, Indian board books).
    for (const [re, zone] of INLINE_BOX) {
      if (re.test(p)) {
        box = openBox(zone, 7);
        break;
      }
    }
    // A titled block whose first paragraph shows what it is.
    if (!box && pending) {
      const opened = openerZone(p);
      if (opened) {
        box = openBox(opened, pending.level);
        pending.run.zone = opened;
      }
    }
    if (!box && EXAMPLE_PART_RE.test(p) && /^(?:example|worked|solved|sample|illustration|problem)/i.test(p))
      box = openBox("worked_example", 7);

    // PDF text loses headings into paragraphs, so a box there also ends after a few paragraphs.
    const open = box as IBox | null;
    if (
      mode === "layout" &&
      open &&
      open.level < 7 &&
      ["feature_box", "media"].includes(open.zone) &&
      open.paras >= 3
    )
      box = null;
    const zone = paragraphZone(p, box as IBox | null);
    if (zone === "close") {
      box = null;
      pushExposition(text, block, runs);
      continue;
    }
    if (zone === "caption") {
      // A caption ends at its credit; PDF text may run the next paragraph on after it.
      const end = captionEnd(text, block.start, block.end);
      runs.push({ start: block.start, end, zone: "caption" });
      const rest = { start: end, end: block.end };
      const restText = text.slice(rest.start, rest.end).trim();
      if (restText) {
        const restZone = paragraphZone(restText, box as IBox | null);
        if (restZone === "close") box = null;
        if (restZone === "close" || restZone === "exposition") pushExposition(text, rest, runs);
        else runs.push({ ...rest, zone: restZone });
      }
      continue;
    }
    if (zone === "exposition") pushExposition(text, block, runs);
    else runs.push({ start: block.start, end: block.end, zone });
  }
  return runs;
}

/** What a titled block is, from its first paragraph, or null when it reads as plain text. */
function openerZone(p: string): EZone | null {
  if (/^(?:problem|example\s*\d)/i.test(p) && EXAMPLE_PART_RE.test(p)) return "worked_example";
  if (/\bin this (?:activity|lab|investigation|experiment)\b/i.test(p)) return "activity";
  if (
    /^(?:this|the) (?:video|simulation|animation)\b|^in this (?:simulation|animation|video|interactive)\b/i.test(
      p,
    )
  )
    return "media";
  if (/^[A-Z][\w'’ -]{2,40}\.\s/.test(p) && CAREER_TITLE.test(p.split(".")[0]!.trim())) return "feature_box";
  return null;
}

/** A paragraph's zone given the open box; "close" ends the box and reads the paragraph as exposition. */
function paragraphZone(p: string, box: IBox | null): EZone | "close" {
  if (box) box.paras++;
  if (CAPTION_RE.test(p)) return "caption";
  if (MEDIA_TITLE_RE.test(p.trim())) return "media";
  if (box) {
    switch (box.zone) {
      case "media":
        if (MEDIA_CUE_RE.test(p) || box.paras === 1) return "media";
        return "close";
      case "activity": {
        const list = isListParagraph(p);
        if (!list && box.level === 7 && box.paras > 1 && !ACTIVITY_CUE_RE.test(p) && !isQuestionParagraph(p))
          return "close";
        if (!list && box.sawList && !ACTIVITY_CUE_RE.test(p) && !isQuestionParagraph(p) && box.paras > 2)
          return "close";
        if (list) box.sawList = true;
        return "activity";
      }
      case "worked_example":
        if (SOLUTION_RE.test(p)) box.sawSolution = !/\bProblem:/.test(p);
        else if (box.sawSolution && !EXAMPLE_PART_RE.test(p) && mathShare(p) < 0.05) return "close";
        return "worked_example";
      case "feature_box":
        if (box.figureQuestion) {
          if (isQuestionParagraph(p)) {
            box.figureQuestion = false;
            box.paras = 99;
            return "book_question";
          }
          if (box.paras > 2) return "close";
          return "feature_box";
        }
        if (box.level === 7 && box.paras > 2) return "close";
        return "feature_box";
      case "book_question":
        // An exercise set ends at the first paragraph that is not a question or an option (PDF text
        // has no heading after it).
        if (box.paras > 1 && !isQuestionParagraph(p) && !isListParagraph(p) && !OPTION_LINE_RE.test(p))
          return "close";
        return "book_question";
      default:
        return box.zone;
    }
  }
  if (looksLikeBookQuestions(p)) return "book_question";
  if (MEDIA_CUE_RE.test(p) && p.length < 400 && (p.match(/[.!?](?:\s|$)/g) ?? []).length <= 3) return "media";
  if (EXAMPLE_PART_RE.test(p)) return "worked_example";
  return "exposition";
}

function mathShare(p: string): number {
  const symbols = (p.match(/[=^_√∑∫×÷±→←≈≤≥]/g) ?? []).length;
  return symbols / Math.max(1, p.split(/\s+/).length);
}

/** A figure's credit closing a sentence: "(credit: …)", "(Paul Brennan, Public Domain)". */
const CREDIT_END_RE =
  /\((?:credit|photo|image|source|courtesy)[^()]*\)\s*$|\([^()]{2,120}(?:public domain|flickr|wikimedia|nasa|cc by|getty|istock|shutterstock|unsplash|university)[^()]*\)\s*$|\bcredit:[^.]*\.?\s*$/i;

/** Where a caption starting at `start` ends: after the sentence with its credit, or at `end`. */
function captionEnd(text: string, start: number, end: number): number {
  // "… reference frame. (Domenico Tintoretto) The idea that …": a credit after a sentence's end.
  const credit = /[.?!]["'”]?\s*\([^()]{2,120}\)(?=\s+\S)/.exec(text.slice(start, end));
  if (credit) return start + credit.index + credit[0].length;
  const spans = sentenceSpans(text, start, end);
  for (const [i, [, e]] of spans.entries()) {
    if (i < spans.length - 1 && CREDIT_END_RE.test(text.slice(start, e))) return e;
  }
  return end;
}

const CAPTION_SENTENCE_RE = /^(?:Figure|Fig\.)\s*(?::|\d)/;

/** An exposition paragraph, sentence by sentence: definitions, media sentences and run-in captions marked. */
function pushExposition(text: string, block: { start: number; end: number }, runs: IZoneRun[]): void {
  const spans = sentenceSpans(text, block.start, block.end);
  if (spans.length === 0) {
    runs.push({ start: block.start, end: block.end, zone: "exposition" });
    return;
  }
  /** Sentences left of a caption that PDF text ran into the paragraph (it ends at its credit). */
  let caption = 0;
  for (const [s, e] of spans) {
    const sentence = text.slice(s, e);
    if (CAPTION_SENTENCE_RE.test(sentence)) caption = 3;
    if (caption > 0) {
      runs.push({ start: s, end: e, zone: "caption" });
      caption = CREDIT_END_RE.test(sentence) ? 0 : caption - 1;
      continue;
    }
    const zone: EZone = MEDIA_CUE_RE.test(sentence)
      ? "media"
      : /^\(?(?:credit|source|courtesy)s?\s*:/i.test(sentence)
        ? "caption"
        : isDefinitionSentence(sentence)
          ? "definition"
          : "exposition";
    runs.push({ start: s, end: e, zone });
  }
}

// ---------------------------------------------------------------------------------------------
// Chunks

/** Zone runs of [start, end) as spans relative to `start`, merged, and the dominant zone. */
export function zonesOfRange(
  runs: readonly IZoneRun[],
  start: number,
  end: number,
): { zone: EZone; spans: TZoneSpan[] } {
  let lo = 0;
  let hi = runs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (runs[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  const spans: TZoneSpan[] = [];
  for (let i = lo; i < runs.length && runs[i]!.start < end; i++) {
    const r = runs[i]!;
    const s = Math.max(start, r.start) - start;
    const e = Math.min(end, r.end) - start;
    if (e <= s) continue;
    const last = spans.at(-1);
    if (last && last[2] === r.zone) last[1] = e;
    else spans.push([s, e, r.zone]);
  }
  return { zone: dominantZone(spans), spans };
}

/**
 * The zone a chunk is filed under: the zone holding most of its characters, definitions counted
 * with exposition (a definition sits inside the lesson's prose) unless they hold a third of it.
 */
export function dominantZone(spans: readonly TZoneSpan[]): EZone {
  const chars = new Map<EZone, number>();
  for (const [s, e, z] of spans) chars.set(z, (chars.get(z) ?? 0) + (e - s));
  const definition = chars.get("definition") ?? 0;
  const lesson = (chars.get("exposition") ?? 0) + definition;
  let best: EZone = "exposition";
  let bestChars = lesson;
  for (const [z, n] of chars) {
    if (z === "exposition" || z === "definition") continue;
    if (n > bestChars) {
      best = z;
      bestChars = n;
    }
  }
  if (best === "exposition" && lesson > 0 && definition >= lesson / 3) return "definition";
  return best;
}

/** Zone runs of a whole extracted document (offsets into the pages joined as the chunker joins them). */
export function zoneDocument(doc: IExtractedDocument): { text: string; runs: IZoneRun[] } {
  const { text } = joinPages(doc.pages);
  const mode = structureModeOf(doc.mimeType);
  return { text, runs: zoneBlocks(text, parseBlocks(text, mode), [], mode) };
}

/** The chunker with zones: every chunk carries its dominant zone and its zone spans. */
export function chunkDocumentWithZones(doc: IExtractedDocument, opts: IChunkOptions = {}): IChunkDraft[] {
  const chunks = chunkDocument(doc, opts);
  const { runs } = zoneDocument(doc);
  return chunks.map((c) => {
    const { zone, spans } = zonesOfRange(runs, c.charStart, c.charEnd);
    return { ...c, zone, zoneSpans: spans };
  });
}

function modeOfPassage(content: string): TStructureMode {
  return /^ {0,3}#{1,6}\s+\S/m.test(content) ? "markdown" : "layout";
}

/**
 * Zones of a stored passage without zones (ingested before zones, or built in a test): the same
 * pass over the passage alone, with its section path as the heading trail it starts under.
 */
export function zonePassage(
  content: string,
  sectionPath?: string | null,
): { zone: EZone; spans: TZoneSpan[] } {
  const trail = (sectionPath ?? "").split(" > ").filter(Boolean);
  const mode = modeOfPassage(content);
  const runs = zoneBlocks(content, parseBlocks(content, mode), trail, mode);
  return zonesOfRange(runs, 0, content.length);
}
