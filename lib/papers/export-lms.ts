import type { IPaper, IPaperQuestion } from "@/types/paper.types";
import { buildAnswerKey, type IAnswerKeyEntry, optionLetter, stripControls } from "./answer-key";
import { numberItems } from "./check";

/** Answer-key entries by "<itemId>:<isAlternative>". */
function keyByItem(paper: IPaper): Map<string, IAnswerKeyEntry> {
  return new Map(buildAnswerKey(paper).map((e) => [`${e.itemId}:${e.isAlternative}`, e]));
}

/** Escapes GIFT's special characters (backslash first) and keeps line breaks as `\n`. */
export function giftEscape(text: string): string {
  return stripControls(text)
    .trim()
    .replace(/\\/g, "\\\\")
    .replace(/[~=#{}:]/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n");
}

/** The answer block of a GIFT question: choices with feedback for MCQs, `{}` (essay) otherwise. */
function giftAnswers(q: IPaperQuestion, entry: IAnswerKeyEntry | undefined): string {
  if (q.type !== "mcq" || !q.options || q.correctIndex === undefined) return "{}";
  const rationales = new Map((entry?.distractors ?? []).map((d) => [d.letter, d.rationale]));
  const lines = q.options.map((o, i) => {
    const feedback = i === q.correctIndex ? q.explanation : rationales.get(optionLetter(i));
    return `  ${i === q.correctIndex ? "=" : "~"}${giftEscape(o)}${feedback ? `#${giftEscape(feedback)}` : ""}`;
  });
  return `{\n${lines.join("\n")}\n}`;
}

/** One GIFT question titled Q<n> (Q<n>-OR for an alternative). */
function giftQuestion(q: IPaperQuestion, title: string, entry: IAnswerKeyEntry | undefined): string {
  return `::${giftEscape(title)}:: ${giftEscape(q.promptText)} ${giftAnswers(q, entry)}`;
}

/** The paper as Moodle GIFT: MCQs with right/wrong choices and feedback, other questions as essays. */
export function paperToGift(paper: IPaper): string {
  const numbers = numberItems(paper);
  const key = keyByItem(paper);
  const blocks = [
    `// ${stripControls(paper.title).replace(/\n/g, " ")}`,
    `// ${paper.board} · Class ${paper.grade} · ${paper.subject}`,
  ];
  for (const section of paper.sections) {
    blocks.push(`// ${stripControls(section.name).replace(/\n/g, " ")}`);
    for (const item of section.items) {
      const n = numbers.get(item.id) ?? 0;
      blocks.push(giftQuestion(item.question, `Q${n}`, key.get(`${item.id}:false`)));
      if (item.alternative)
        blocks.push(giftQuestion(item.alternative, `Q${n}-OR`, key.get(`${item.id}:true`)));
    }
  }
  return `${blocks.join("\n\n")}\n`;
}

/** Escapes text for XML 1.0 content and attributes, dropping characters XML cannot hold. */
export function xmlEscape(text: string): string {
  return stripControls(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** `<material><mattext>…</mattext></material>` for plain text. */
function material(text: string): string {
  return `<material><mattext texttype="text/plain">${xmlEscape(text)}</mattext></material>`;
}

/** QTI metadata fields for an item. */
function qtiMetadata(fields: Record<string, string>): string {
  const rows = Object.entries(fields).map(
    ([k, v]) =>
      `          <qtimetadatafield><fieldlabel>${xmlEscape(k)}</fieldlabel><fieldentry>${xmlEscape(v)}</fieldentry></qtimetadatafield>`,
  );
  return [
    "      <itemmetadata>",
    "        <qtimetadata>",
    ...rows,
    "        </qtimetadata>",
    "      </itemmetadata>",
  ].join("\n");
}

/** The response and scoring of an MCQ: `render_choice` and a `resprocessing` naming the right letter. */
function qtiChoice(q: IPaperQuestion, marks: number): string[] {
  const labels = (q.options ?? []).map(
    (o, i) => `            <response_label ident="${optionLetter(i)}">${material(o)}</response_label>`,
  );
  const right = optionLetter(q.correctIndex ?? 0);
  return [
    `        <response_lid ident="response1" rcardinality="Single">`,
    `          <render_choice shuffle="No">`,
    ...labels,
    "          </render_choice>",
    "        </response_lid>",
    "      </presentation>",
    "      <resprocessing>",
    `        <outcomes><decvar varname="SCORE" vartype="Decimal" minvalue="0" maxvalue="${marks}"/></outcomes>`,
    `        <respcondition continue="No" title="correct">`,
    `          <conditionvar><varequal respident="response1">${right}</varequal></conditionvar>`,
    `          <setvar action="Set" varname="SCORE">${marks}</setvar>`,
    "        </respcondition>",
    "      </resprocessing>",
  ];
}

/** The response of a short or long question: an open text box. */
function qtiEssay(q: IPaperQuestion): string[] {
  const rows = q.type === "long" ? 15 : 5;
  return [
    `        <response_str ident="response1" rcardinality="Single">`,
    `          <render_fib fibtype="String" prompt="Box" rows="${rows}" columns="80"/>`,
    "        </response_str>",
    "      </presentation>",
  ];
}

/** One QTI `item`. */
function qtiItem(q: IPaperQuestion, ident: string, title: string, marks: number, feedback?: string): string {
  const type = q.type === "mcq" ? "Multiple Choice" : "Essay";
  return [
    `    <item ident="${xmlEscape(ident)}" title="${xmlEscape(title)}">`,
    qtiMetadata({ qmd_itemtype: type, points_possible: String(marks), bloom_level: q.bloomLevel }),
    "      <presentation>",
    `        ${material(q.promptText)}`,
    ...(q.type === "mcq" && q.options && q.correctIndex !== undefined ? qtiChoice(q, marks) : qtiEssay(q)),
    ...(feedback
      ? [
          `      <itemfeedback ident="general_fb">`,
          `        <flow_mat>${material(feedback)}</flow_mat>`,
          "      </itemfeedback>",
        ]
      : []),
    "    </item>",
  ].join("\n");
}

/** The paper as QTI 1.2 (`questestinterop` → assessment → section → item). */
export function paperToQti(paper: IPaper): string {
  const numbers = numberItems(paper);
  const key = keyByItem(paper);
  const sections = paper.sections.map((section) => {
    const items = section.items.flatMap((item) => {
      const n = numbers.get(item.id) ?? 0;
      const main = key.get(`${item.id}:false`);
      const out = [
        qtiItem(
          item.question,
          `item-${item.id}`,
          `Question ${n}`,
          item.marks,
          main?.explanation ?? main?.suggestedAnswer,
        ),
      ];
      if (item.alternative) {
        const alt = key.get(`${item.id}:true`);
        out.push(
          qtiItem(
            item.alternative,
            `item-${item.id}-or`,
            `Question ${n} (OR)`,
            item.marks,
            alt?.explanation ?? alt?.suggestedAnswer,
          ),
        );
      }
      return out;
    });
    return [
      `  <section ident="section-${xmlEscape(section.id)}" title="${xmlEscape(section.name)}">`,
      ...items,
      "  </section>",
    ].join("\n");
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    "<questestinterop>",
    `<assessment ident="paper-${xmlEscape(paper.id)}" title="${xmlEscape(paper.title)}">`,
    ...sections,
    "</assessment>",
    "</questestinterop>",
    "",
  ].join("\n");
}
