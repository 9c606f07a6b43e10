/**
 * Recognises text written to steer a language model rather than to teach: "ignore previous
 * instructions", "you are now …", "SYSTEM NOTE: …", requests for passwords or the system prompt.
 * Curriculum prose does not talk to an assistant, so these patterns are rare in real passages and
 * a sentence that matches one is never made into a question (ingestion flags the chunk; the
 * generation gate refuses questions built on or containing it).
 */
const PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|these\s+|those\s+)*(?:previous|prior|above|earlier|preceding|original|system|safety)?\s*(?:instructions?|prompts?|rules|directions|guidelines|messages?)\b/i,
  /\b(?:system|admin(?:istrator)?|developer)\s+(?:note|notice|message|prompt|override|instruction)s?\s*:/i,
  /\b(?:you are now|from now on,? you|act as (?:an?|the) (?:ai|assistant|language model|chatbot)|pretend (?:to be|you are))\b/i,
  /\b(?:reveal|print|output|show|tell me|repeat|leak)\s+(?:me\s+)?(?:the|your)\s+(?:system prompt|instructions|password|api[ -]?key|secret|credentials)\b/i,
  /\bwhat is the (?:admin(?:istrator)?|root|system) password\b/i,
  /\b(?:as an ai|language model|assistant)\b[^.]{0,40}\b(?:must|should|will)\s+(?:now\s+)?(?:respond|answer|output|write|say)\b/i,
  /\b(?:respond|reply|answer)\s+only\s+with\b/i,
  /<\s*\/?\s*(?:system|assistant|user|instructions?)\s*>/i,
  /\[\s*(?:system|inst)\s*\]/i,
];

/** The instruction-like phrases found in `text` (empty when it reads as ordinary prose). */
export function instructionLikePhrases(text: string): string[] {
  const found: string[] = [];
  for (const re of PATTERNS) {
    const m = re.exec(text);
    if (m) found.push(m[0]);
  }
  return found;
}

export function looksLikeInstruction(text: string): boolean {
  return PATTERNS.some((re) => re.test(text));
}

/** A chunk whose text reads as instructions to a model, with the phrases that matched. */
export interface IInstructionFlag {
  chunkIndex: number;
  phrases: string[];
}

/** At most this many flagged chunks are recorded per document (the count says when there are more). */
export const MAX_RECORDED_FLAGS = 200;

/**
 * The chunks of a document that carry instruction-like text (heading trail included, since a
 * planted "SYSTEM NOTE" can sit in a heading). Recorded at ingestion and shown to admins, so a
 * poisoned upload is noticed before anyone generates from it.
 */
export function flagInstructionLikeChunks(
  chunks: readonly { chunkIndex: number; content: string; sectionPath?: string }[],
): IInstructionFlag[] {
  const flags: IInstructionFlag[] = [];
  for (const c of chunks) {
    const phrases = instructionLikePhrases(`${c.sectionPath ?? ""}\n${c.content}`);
    if (phrases.length === 0) continue;
    flags.push({ chunkIndex: c.chunkIndex, phrases: phrases.slice(0, 3).map((p) => p.slice(0, 120)) });
    if (flags.length >= MAX_RECORDED_FLAGS) break;
  }
  return flags;
}
