import { diffWords } from "diff";

export interface IDiffSpan {
  text: string;
  /** True for words the enhancer (or the teacher's edit) added to the original query. */
  added: boolean;
}

/**
 * The enhanced query split into kept and added words against the original, for highlighting.
 * Removed words are dropped: the enhanced text is what gets searched. Case is ignored so a
 * capitalised repeat of the teacher's own word is not shown as new.
 */
export function addedWordSpans(original: string, enhanced: string): IDiffSpan[] {
  const spans: IDiffSpan[] = [];
  for (const part of diffWords(original, enhanced, { ignoreCase: true })) {
    if (part.removed) continue;
    const added = !!part.added;
    const last = spans.at(-1);
    if (last && last.added === added) last.text += part.value;
    else spans.push({ text: part.value, added });
  }
  return spans;
}
