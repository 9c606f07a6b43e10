import type { IPaper, IPaperItem, IPaperQuestion } from "@/types/paper.types";

/**
 * A paper for the export clients: all three question types, an OR pair of each type, an "attempt
 * any" section, and text that is markup in one format or another (HTML, Markdown inline and block
 * markers, GIFT's specials, entities, emoji, right-to-left script, several lines).
 */
export const HOSTILE_TEXTS = [
  "<script>alert(1)</script> What does the cell membrane do?",
  "If p = m*v and 2*3*4 = 24, is *a* or _b_ or __c__ emphasised?",
  "# x is not a heading",
  "{=~} and a:b and #1 and ~2 are GIFT specials",
  "&amp; stays &amp; and &lt;b&gt; stays text, as does <b>bold</b>",
  "[html]<i>not HTML</i> and [link](javascript:alert(1))",
  "Emoji 🧪🔬 and RTL: الخلية هي وحدة الحياة",
] as const;

/** Several lines, each starting with a Markdown block marker. */
export const MULTILINE = [
  "Read the data, then answer:",
  "- item one is not a list",
  "1. nor is this",
  "---",
  "```",
  "> not a quote",
  "+ or this",
  "| a | b |",
].join("\n");

let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, "0")}`;

const cite = {
  documentId: "11111111-1111-4111-8111-111111111111",
  chunkIndex: 2,
  title: "Biology 2e <ch. 4> & notes",
  pageStart: 88,
  quote: "The plasma membrane controls what enters and leaves the cell.",
};

function mcq(promptText: string, options: string[], correctIndex: number): IPaperQuestion {
  return {
    type: "mcq",
    bloomLevel: "Understand",
    difficulty: "easy",
    promptText,
    options,
    correctIndex,
    explanation: `Because ${options[correctIndex]} — see {p. 88} & <fig 4.1>.`,
    distractorRationales: options
      .filter((_, i) => i !== correctIndex)
      .map((o) => `Not "${o}": *tempting* but wrong.`),
    citations: [cite],
  };
}

function open(type: "short" | "long", promptText: string, marks: number): IPaperQuestion {
  return {
    type,
    bloomLevel: type === "long" ? "Analyze" : "Apply",
    difficulty: "medium",
    promptText,
    suggestedAnswer:
      "The membrane is *selectively* permeable: {water} moves by osmosis & <ions> by channels.",
    evaluatorKeywords: ["osmosis", "a|b", "<channel>"],
    markingScheme:
      marks === 1
        ? [{ point: "Selective | permeability", marks: 1 }]
        : [
            { point: "Selective | permeability *named*", marks: 1 },
            { point: "# Osmosis explained", marks: marks - 1 },
          ],
    citations: [cite],
  };
}

const item = (marks: number, question: IPaperQuestion, alternative?: IPaperQuestion): IPaperItem => ({
  id: uuid(),
  marks,
  question,
  ...(alternative ? { alternative } : {}),
});

export function hostilePaper(): IPaper {
  seq = 0;
  const [script, star, hash, gift, amp, html, emoji] = HOSTILE_TEXTS;
  return {
    id: "22222222-2222-4222-8222-222222222222",
    title: "Cells & <Membranes>: *unit* test #1",
    schoolName: "School_of *Life*",
    board: "OpenStax",
    grade: "11",
    subject: "Biology",
    durationMinutes: 60,
    totalMarks: 12,
    instructions: ["Answer all questions.", "- Marks are in [brackets]; *no* calculators."],
    sections: [
      {
        id: uuid(),
        name: "Section A: MCQ / choose one",
        instructions: "Pick *one* option.",
        questionType: "mcq",
        marksPerQuestion: 1,
        items: [
          item(1, mcq(script, ["<b>lets things in</b>", "*nothing*", "{=~#}", "&amp;"], 0)),
          item(
            1,
            mcq(star, ["yes", "no", "# maybe", "- never"], 1),
            mcq(emoji, ["🧪", "الخلية", "a_b_c", "1. one"], 2),
          ),
          item(1, mcq(MULTILINE, ["```", "---", "> q", "| x |"], 3)),
        ],
      },
      {
        id: uuid(),
        name: "Section B",
        questionType: "short",
        marksPerQuestion: 2,
        attemptAny: 2,
        items: [
          item(2, open("short", hash, 2), open("short", gift, 2)),
          item(2, open("short", amp, 2)),
          item(2, open("short", `${MULTILINE}\n${html}`, 2)),
        ],
      },
      {
        id: uuid(),
        name: "Section C",
        questionType: "long",
        marksPerQuestion: 5,
        items: [item(5, open("long", `${HOSTILE_TEXTS.join("\n")}`, 5), open("long", MULTILINE, 5))],
      },
    ],
    version: 1,
    createdAt: "2026-11-20T09:00:00.000Z",
    updatedAt: "2026-11-21T10:00:00.000Z",
  };
}

/** Every question of a paper with its number, marks and whether it is an OR alternative. */
export function questionsOf(paper: IPaper) {
  let n = 0;
  return paper.sections.flatMap((section) =>
    section.items.flatMap((it) => {
      n++;
      const base = { number: n, marks: it.marks, section: section.name, itemId: it.id };
      return [
        { ...base, question: it.question, alternative: false },
        ...(it.alternative ? [{ ...base, question: it.alternative, alternative: true }] : []),
      ];
    }),
  );
}
