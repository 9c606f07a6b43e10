/**
 * The problem statement as a stem: figure references removed (a generated question has no
 * figure), and only problems that ask exactly one numeric question kept. Multi-part problems
 * ("(a) … (b) …", numbered sub-questions), problems that need their figure, and problems that
 * also ask to compare, explain or draw are refused, never guessed at.
 */

export type TPrepared =
  | {
      ok: true;
      text: string;
      question: string;
      /** Only part (a) of a "(a) … (b) …" problem was kept: the solution must answer no more than it. */
      firstPart?: boolean;
    }
  | { ok: false; reason: string };

const PARTS_RE = /(?:^|\s)\((?:a|b|c|d|i|ii|iii)\)\s|^\s*\d+\.\s|\n\s*\d+\.\s|\bpart \(?[ab]\)?/im;
const ASK_RE =
  /^(?:calculate|find|determine|compute|estimate|what|how|which|express|compare|explain|show|make|draw|sketch|describe|graph|plot)\b|[,;:]\s*(?:calculate|find|determine|compute|estimate)\b/i;
/** "at 1.00, 2.00, and 3.00 seconds"; "the position and velocity", "the velocity and direction". */
const SEVERAL_VALUES = /\d[\d.]*\s*[a-zA-Z°]*\s*,\s*\d[\d.]*\s*[a-zA-Z°]*\s*,?\s*and\s+\d/;
const SEVERAL_QUANTITIES =
  /\b(?:position|velocity|speed|acceleration|time|distance|displacement|force|height|angle|magnitude|mass|weight|energy|power|momentum)\s+(?:and|as well as)\s+(?:the\s+|its\s+)?(?:direction|position|velocity|speed|acceleration|time|distance|displacement|force|height|angle|magnitude|mass|weight|energy|power|momentum)\b/i;
const NON_NUMERIC_ASK = /^(?:compare|explain|show|make|draw|sketch|describe|graph|plot|which)\b/i;

/** Figure asides, longest first; each leaves the sentence grammatical without the figure. */
const FIG = String.raw`Figure(?:\s*\(?[a-z]\))?`;
const SHOWN = String.raw`(?:(?:like that|like the one|as|such as that)\s+)?(?:shown|illustrated|pictured|seen|graphed)?\s*in ${FIG}`;
const FIGURE_ASIDES: [RegExp, string][] = [
  [new RegExp(String.raw`\s*\((?:see |as shown in |shown in |as in )?${FIG}\.?\)`, "gi"), ""],
  [new RegExp(String.raw`,\s*${SHOWN},\s*`, "gi"), " "],
  [new RegExp(String.raw`,\s*${SHOWN}(?=[.;?])`, "gi"), ""],
  [new RegExp(String.raw`\s+${SHOWN}(?=[,.;?])`, "gi"), ""],
  [/\s+(?:as )?shown (?:below|above)(?=[\s,.;?])/gi, ""],
  // "the ocean wave in the previous figure", "the woman in Figure 13.7": the thing is named in words.
  [
    /(?<=\b[a-z]{3,})\s+in (?:the (?:previous|preceding|following|above|first) )?figure(?:\s*\d+(?:\.\d+)*)?(?=[\s,.;?])/gi,
    "",
  ],
];
/**
 * A sentence that only points at the figure ("See Figure.", "Refer to Figure 2."): dropped, so the
 * problem stands on its words. A value the figure alone holds is still caught: the worked example
 * then uses a number the problem does not state, and its analysis refuses it. A sentence that
 * describes the figure ("Figure shows the major and minor axes …") stays and is refused: the next
 * sentence may lean on it ("half of these").
 */
const FIGURE_ONLY_SENTENCE =
  /(?:^|(?<=[.?!]\s))(?:See|Refer to|Look at) (?:the )?(?:previous |following )?Figure(?:\s*\d+(?:\.\d+)*)?\.(?:\s+|$)/g;
/** What the problem leans on that a generated question cannot show: a figure, a table, another example. */
const NEEDS_FIGURE = new RegExp(
  [
    String.raw`\bFigure\b|\bdiagram\b|\bgraph(?:ed)?\b|\bthe (?:image|picture)\b|\bas shown\b`,
    String.raw`\b(?:circuit|figure|graph|table|picture|image|drawing|setup|arrangement)s? (?:below|above|shown)\b`,
    String.raw`\bshown (?:below|above)\b|\b(?:previous|preceding|last|earlier|above|following) (?:example|problem|table|figure|section)\b`,
  ].join("|"),
  "i",
);
/** "…, and identify the substance", "… resistance and what current …": a second question in the sentence. */
const SECOND_ASK =
  /\band\s+(?:what|how|which|where|in what|identify|name|explain|find|determine|calculate|state|describe|compare)\b|,\s*(?:identify|name|explain|state|describe|compare)\b/i;

export function prepareProblem(raw: string): TPrepared {
  let text = raw
    .replace(/\s*\n\s*/g, " ")
    .replace(/\s{2,}/g, " ")
    .trim();
  let firstPart = false;
  if (PARTS_RE.test(raw)) {
    const kept = partA(text);
    if (!kept) return { ok: false, reason: "the problem has several parts" };
    text = kept;
    firstPart = true;
  }
  text = text.replace(FIGURE_ONLY_SENTENCE, "");
  for (const [re, by] of FIGURE_ASIDES) text = text.replace(re, by);
  text = text
    .replace(/\s+([,.;?])/g, "$1")
    .replace(/,\s*([,.;?])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .trim();
  if (NEEDS_FIGURE.test(text)) return { ok: false, reason: "the problem needs its figure" };
  if (/\([^)]*Note\b|\bNote\s*[-—–:]/.test(text)) text = text.replace(/\s*\((?:Note|Hint)\b[^)]*\)/g, "");
  const sentences = splitSentences(text);
  const asks = sentences.filter((s) => /\?$/.test(s) || ASK_RE.test(s));
  if (asks.length === 0) return { ok: false, reason: "the problem asks no question" };
  if (asks.length > 1) return { ok: false, reason: "the problem asks more than one question" };
  const question = asks[0]!;
  if (NON_NUMERIC_ASK.test(question)) return { ok: false, reason: "the problem does not ask for a number" };
  if (SECOND_ASK.test(question)) return { ok: false, reason: "the problem asks more than one question" };
  if (SEVERAL_VALUES.test(question) || SEVERAL_QUANTITIES.test(question)) {
    return { ok: false, reason: "the problem asks for more than one value" };
  }
  return firstPart ? { ok: true, text, question, firstPart } : { ok: true, text, question };
}

/**
 * The set-up and part (a) of a "(a) … (b) …" problem, as one problem: "A capacitor of 200 μF.
 * (a) If … 100 V …, how much energy is stored? (b) …" → "A capacitor of 200 μF. If … 100 V …, how
 * much energy is stored?". Null when part (a) does not open a sentence of its own ("Calculate a)
 * how much …", "… of (b) the pan and (c) the water") or more parts remain.
 */
export function partA(text: string): string | null {
  const a = /(?:^|[.?!:]\s+)\(a\)\s*/i.exec(text);
  const b = /\s*\(b\)/i.exec(text);
  if (!a || !b || b.index <= a.index) return null;
  let head = text.slice(0, b.index).trimEnd();
  // Part (a) ends its own sentence before (b) starts; a sentence that goes on into (b) is dropped.
  if (!/[.?!]$/.test(head)) {
    const end = Math.max(head.lastIndexOf("? "), head.lastIndexOf(". "));
    if (end <= a.index) return null;
    head = head.slice(0, end + 1);
  }
  const kept =
    `${head.slice(0, a.index)}${a[0].replace(/\(a\)\s*/i, "")}${head.slice(a.index + a[0].length)}`.trim();
  return PARTS_RE.test(kept) || kept.length < 20 ? null : kept;
}

/** Sentences of a problem statement (decimals, units with dots and initials do not end one). */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  const re = /[.?!](?=\s+[A-Z(“"]|$)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 4), m.index);
    if (/\b(?:in|vs|e\.g|i\.e|approx|[A-Z])$/.test(before)) continue;
    out.push(text.slice(from, m.index + 1).trim());
    from = m.index + 1;
  }
  if (from < text.length && text.slice(from).trim()) out.push(text.slice(from).trim());
  return out.filter(Boolean);
}
