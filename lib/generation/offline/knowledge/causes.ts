import nlp from "compromise";
import { capital } from "./lexicon";
import type { ICausal } from "./relations";
import { isFullClause } from "./relations";
import { type ISentence, isStandalone } from "./sentences";

/**
 * Causes stated across two sentences that `extractCausal` (knowledge/relations.ts) does not read:
 *  - the second sentence gives the reason for the first: "In a living cell, chemical reactions …
 *    never reach equilibrium. This is because a living cell is an open system." (cause = S2);
 *  - the second sentence is the consequence of the first, linked by a pointer the main reader does
 *    not take: "… five times more than that of sand. This explains why the land cools faster than
 *    the sea." / "This is why …" / "Due to this, …" (cause = S1).
 * Both halves must read as sentences of their own (`isFullClause`), in one block of one passage,
 * next to each other, outside feature boxes; the earlier sentence must stand on its own. Additive:
 * any form may call it beside `kb.causal` (assertion–reason does).
 */

/** "This is because Y" and its kin: the reason follows the pointer. */
const REASON_AFTER =
  /^(?:this|that) (?:is|was|happens|happened|occurs|occurred) (?:mainly |largely |partly |simply )?because (?:of the fact that )?(.{15,})$|^the reason (?:for this )?is that (.{15,})$/i;
/** "This is why Y", "This explains why Y", "Due to this, Y": the consequence follows the pointer. */
const CONSEQUENCE_AFTER =
  /^(?:this|that) (?:is (?:the reason )?why|explains why|is the reason that) (.{15,})$|^(?:due to this|owing to this|because of that|as a result of this|for that reason|this is the reason),\s+(.{15,})$/i;

const DEFINITION = /\b(?:is|are) (?:defined as|called|known as|termed)\b|\brefers? to\b|\bmeans\b/i;
const clauseOf = (text: string) => text.trim().replace(/[.!]$/, "");
/** A discourse opener of the earlier sentence, not part of what it states. */
const OPENER = /^(?:in fact|indeed|by comparison|in general|generally|today|in nature|in humans),\s+/i;

/**
 * "Lipids include … . This is because they are hydrocarbons …": the reason's opening "it / they"
 * names the earlier sentence's subject; it is put back when that subject is a plain noun phrase of
 * the same number, else the pronoun stays (and the cause is refused as leaning on its context).
 */
export function resolveSubject(reason: string, earlier: string): string {
  const m = /^(it|they) (.+)$/i.exec(reason);
  if (!m) return reason;
  const subject = nlp(earlier).match("^#Determiner? #Adjective{0,2} #Noun{1,3}");
  const text = subject.text().trim();
  if (!text || text.split(/\s+/).length > 5 || /,/.test(text)) return reason;
  // The noun phrase must be followed by the sentence's verb, not be the start of a longer subject.
  const after = earlier.slice(text.length).trim();
  if (
    !/^(?:is|are|was|were|has|have|had|can|may|does|do|contains?|includes?|consists?|forms?|makes?|uses?|needs?|lacks?|produces?|occurs?|appears?|plays?|provides?|[a-z]+s)\b/i.test(
      after,
    )
  )
    return reason;
  const plural = nlp(text).nouns().isPlural().found;
  if ((m[1]!.toLowerCase() === "they") !== plural) return reason;
  // "The cornea" → "the cornea" inside the clause; a name ("Lipids", "DNA") keeps its capital.
  const named = /^(?:the|a|an)\b/i.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
  return `${named} ${m[2]!}`;
}

export function extractLinkedCauses(sentences: readonly ISentence[]): ICausal[] {
  const out: ICausal[] = [];
  sentences.forEach((s, i) => {
    const prev = sentences[i - 1];
    if (!prev || s.sideBox || prev.sideBox || prev.chunkKey !== s.chunkKey || prev.heading !== s.heading)
      return;
    if (prev.position !== s.position - 1 || !prev.standalone) return;
    const text = clauseOf(s.text);
    const earlier = capital(clauseOf(prev.text).replace(OPENER, ""));
    const push = (cause: string, effect: string) => {
      const upper = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
      if (!isStandalone(`${upper(cause)}.`) && cause !== earlier) return;
      if (!isStandalone(`${upper(effect)}.`) && effect !== earlier) return;
      if (!isFullClause(cause) || !isFullClause(effect)) return;
      // "Dispersion is defined as …. This happens because …": a definition is not an effect.
      if (DEFINITION.test(effect)) return;
      out.push({
        kind: "causal",
        cause: capital(cause),
        effect: capital(effect),
        sentence: `${prev.text} ${s.text}`,
        chunkKey: s.chunkKey,
        across: true,
      });
    };
    let m = REASON_AFTER.exec(text);
    if (m) {
      push(resolveSubject(m[1] ?? m[2]!, earlier), earlier);
      return;
    }
    m = CONSEQUENCE_AFTER.exec(text);
    if (m) push(earlier, m[1] ?? m[2]!);
  });
  return out;
}

const LINKED = new WeakMap<readonly ISentence[], ICausal[]>();
/** `extractLinkedCauses` read once per passage set (forms ask for it per slot and per level). */
export function linkedCausesOf(sentences: readonly ISentence[]): ICausal[] {
  let found = LINKED.get(sentences);
  if (!found) {
    found = extractLinkedCauses(sentences);
    LINKED.set(sentences, found);
  }
  return found;
}
