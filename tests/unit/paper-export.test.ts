import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import fontkit from "@pdf-lib/fontkit";
import fc from "fast-check";
import JSZip from "jszip";
import mammoth from "mammoth";
import { micromark } from "micromark";
import { PDFDocument } from "pdf-lib";
import { extractText } from "unpdf";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { buildAnswerKey } from "@/lib/papers/answer-key";
import { exportPaper, slugify } from "@/lib/papers/export";
import { answerKeyToDocx, paperToDocx } from "@/lib/papers/export-docx";
import { giftEscape, paperToGift } from "@/lib/papers/export-gift";
import { answerKeyToMarkdown, escapeMarkdown, paperToMarkdown } from "@/lib/papers/export-markdown";
import { answerKeyToPdf, paperToPdf } from "@/lib/papers/export-pdf";
import { paperToQti } from "@/lib/papers/export-qti";
import type { IPaper, IPaperItem, IPaperQuestion } from "@/types/paper.types";

const OUT = path.join(process.cwd(), "test-results", "paper-export");
const LONG_WORD = "Thermodynamically".repeat(18).slice(0, 300);
const GIFT_STEM = "In set-builder notation, which is right: A = {x : x ≤ 5} # ~ or \\ ?";
const LONG_PROMPT = Array.from(
  { length: 9 },
  (_, i) =>
    `Part ${i + 1}: a ray of light passes from air (μ = 1.00) into glass (μ = 1.52) at an angle of incidence of ${30 + i}°; using Snell's law, find the angle of refraction, the lateral shift Δx for a slab 5 cm thick, and explain why the wavelength λ changes while the frequency stays the same.`,
).join(" ");

let uuidSeq = 0;
/** A fixed, valid UUID per call (tests need determinism, not randomness). */
const uuid = () => `00000000-0000-4000-8000-${String(++uuidSeq).padStart(12, "0")}`;

/** A citation to the class textbook. */
const cite = (pageStart: number, pageEnd?: number) => ({
  documentId: "11111111-1111-4111-8111-111111111111",
  chunkIndex: pageStart,
  title: "NCERT Science Class 10",
  pageStart,
  ...(pageEnd ? { pageEnd } : {}),
  quote: "Light bends when it passes from one medium to another.",
});

/** An MCQ with four options and rationales for the three distractors. */
function mcq(promptText: string, options: string[], correctIndex: number): IPaperQuestion {
  return {
    type: "mcq",
    bloomLevel: "Understand",
    difficulty: "easy",
    promptText,
    options,
    correctIndex,
    explanation: `Option ${correctIndex + 1} follows from the definition.\u0007`,
    distractorRationales: options
      .filter((_, i) => i !== correctIndex)
      .map((o) => `${o} confuses cause and effect.`),
    citations: [cite(160, 162)],
    chapter: "10 · Light",
  };
}

/** A short or long question. */
function open(
  type: "short" | "long",
  promptText: string,
  extra: Partial<IPaperQuestion> = {},
): IPaperQuestion {
  return {
    type,
    bloomLevel: type === "long" ? "Analyze" : "Apply",
    difficulty: "medium",
    promptText,
    suggestedAnswer:
      "Ohm's law states that V = IR at constant temperature. The graph of V against I is a straight line through the origin. Its slope gives the resistance R.",
    evaluatorKeywords: ["Ohm's law", "V = IR", "constant temperature"],
    citations: [cite(200)],
    ...extra,
  };
}

/** An item carrying `marks`. */
const item = (marks: number, question: IPaperQuestion, alternative?: IPaperQuestion): IPaperItem => ({
  id: uuid(),
  marks,
  question,
  ...(alternative ? { alternative } : {}),
});

/** The fixture: three sections, internal choice, "attempt any", symbols, RTL text, an unbroken word. */
function fixturePaper(): IPaper {
  return {
    id: "22222222-2222-4222-8222-222222222222",
    title: "Physics Unit Test: Light & Electricity",
    schoolName: "Kendriya Vidyalaya No. 2, Pune",
    board: "CBSE",
    grade: "10",
    subject: "Science",
    durationMinutes: 90,
    totalMarks: 14,
    instructions: [
      "All questions are compulsory, except where internal choice is given.",
      "Marks are shown in brackets against each question. Draw neat, labelled diagrams where needed.",
    ],
    sections: [
      {
        id: uuid(),
        name: "Section A",
        instructions: "Choose the correct option.",
        questionType: "mcq",
        marksPerQuestion: 1,
        attemptAny: 3,
        items: [
          item(
            1,
            mcq(
              "When the speed of light changes from v → v/2, the refractive index μ becomes:",
              ["μ/2", "2μ", "μ", "4μ"],
              1,
            ),
          ),
          item(1, mcq(GIFT_STEM, ["{x | x ≤ 5}", "x = 5", "x ≥ 5 only", "None of these"], 0)),
          item(
            1,
            mcq(
              "The symbol Δ in ΔV = V₂ − V₁ denotes a change; which quantity is measured in volts? 🙂",
              [
                "The potential difference between two points of a conductor carrying current",
                "The current flowing through the conductor per unit of its cross-sectional area",
                "The charge that crosses any section of the conductor in one second",
                "The resistance offered by a wire of unit length and unit cross-section",
              ],
              0,
            ),
          ),
          item(
            1,
            mcq(
              "The Arabic word كتاب means “book”. Which lens always forms a virtual image, if x < y & z?",
              ["Concave", "Convex", "Both", "Neither"],
              0,
            ),
          ),
        ],
      },
      {
        id: uuid(),
        name: "Section B",
        instructions: "Answer in 50 to 80 words.",
        questionType: "short",
        marksPerQuestion: 3,
        items: [
          item(
            3,
            open(
              "short",
              "State Ohm's law. Draw the V–I graph for a metallic conductor and show how its slope gives R.",
            ),
            open(
              "short",
              "A wire of resistance 10 Ω is stretched to twice its length. Find its new resistance ≤ 50 Ω?",
            ),
          ),
          item(
            3,
            open("short", `Explain why this word wraps: ${LONG_WORD} and what it shows about line breaking.`),
          ),
        ],
      },
      {
        id: uuid(),
        name: "Section C",
        instructions: "Answer in detail.",
        questionType: "long",
        marksPerQuestion: 5,
        items: [
          item(
            5,
            open(
              "long",
              "Describe the refraction of light through a glass slab with a labelled ray diagram, and state the two laws of refraction.",
              {
                markingScheme: [
                  { point: "Labelled ray diagram showing incident, refracted and emergent rays", marks: 2 },
                  { point: "First law: incident ray, refracted ray and normal lie in one plane", marks: 1 },
                  { point: "Second law (Snell's law): sin i / sin r is constant", marks: 1 },
                  { point: "Emergent ray parallel to the incident ray, laterally shifted", marks: 1 },
                ],
              },
            ),
          ),
        ],
      },
    ],
    version: 3,
    createdAt: "2026-01-10T09:00:00.000Z",
    updatedAt: "2026-01-12T10:30:15.250Z",
  };
}

/** The fixture with many long questions, for page breaks. */
function longPaper(): IPaper {
  const paper = fixturePaper();
  const long = Array.from({ length: 6 }, () => item(5, open("long", LONG_PROMPT)));
  const last = paper.sections[2];
  if (last) last.items.push(...long);
  return paper;
}

/** Every question text of a paper, alternatives included. */
function allQuestions(paper: IPaper): IPaperQuestion[] {
  return paper.sections.flatMap((s) =>
    s.items.flatMap((i) => (i.alternative ? [i.question, i.alternative] : [i.question])),
  );
}

const serif = fontkit.create(
  readFileSync(path.join(process.cwd(), "node_modules/dejavu-fonts-ttf/ttf/DejaVuSerif.ttf")),
) as unknown as { characterSet: number[] };
const covered = new Set(serif.characterSet);

/** Whitespace removed, compatibility forms folded, glyphs the font lacks dropped (they print as "?"). */
function squash(text: string, font = false): string {
  const kept = font ? [...text].filter((c) => covered.has(c.codePointAt(0) ?? 0)).join("") : text;
  return kept.normalize("NFKC").replace(/\s+/g, "").replace(/\?/g, "");
}

/** The text of a PDF (a fresh copy of the bytes each call, as unpdf detaches them). */
async function pdfText(bytes: Uint8Array): Promise<{ text: string; totalPages: number }> {
  return extractText(new Uint8Array(bytes), { mergePages: true });
}

/** A tiny XML well-formedness check: balanced tags, no raw "<" or bare "&" in text. */
function wellFormed(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^>]*\?>/, "");
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/g;
  let at = 0;
  for (const m of body.matchAll(tag)) {
    const text = body.slice(at, m.index);
    if (/[<>]/.test(text) || /&(?!(?:amp|lt|gt|quot|apos);)/.test(text)) return false;
    at = m.index + m[0].length;
    const [, close, name = "", , self] = m;
    if (self) continue;
    if (close) {
      if (stack.pop() !== name) return false;
    } else stack.push(name);
  }
  return stack.length === 0 && !/[<>]/.test(body.slice(at));
}

describe("buildAnswerKey", () => {
  it("gives one entry per item and per OR alternative, with letters, schemes and citations", () => {
    const key = buildAnswerKey(fixturePaper());
    expect(key).toHaveLength(8);
    expect(key.map((e) => e.number)).toEqual([1, 2, 3, 4, 5, 5, 6, 7]);
    expect(key.filter((e) => e.isAlternative).map((e) => e.number)).toEqual([5]);
    expect(key[0]).toMatchObject({
      correctLetter: "B",
      correctText: "2μ",
      sectionName: "Section A",
      marks: 1,
    });
    expect(key[0]?.distractors.map((d) => d.letter)).toEqual(["A", "C", "D"]);
    expect(key[0]?.distractors[0]?.rationale).toContain("μ/2");
    expect(key[0]?.citations).toEqual([{ title: "NCERT Science Class 10", pages: "pp. 160–162" }]);
    const long = key.at(-1);
    expect(long?.schemeSource).toBe("given");
    expect(long?.markingScheme.map((p) => p.marks)).toEqual([2, 1, 1, 1]);
    const short = key[4];
    expect(short?.schemeSource).toBe("derived");
    expect(short?.markingScheme.map((p) => p.marks)).toEqual([1, 1, 1]);
    for (const e of key) expect(e.markingScheme.reduce((a, p) => a + p.marks, 0)).toBe(e.marks);
  });

  it("derives schemes that add up to the item's marks, 1+ each, at most one point per mark", () => {
    const sentence = fc.string({ minLength: 1, maxLength: 40 }).map((s) => `${s.replace(/[.!?;\n]/g, "")}.`);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.array(sentence, { maxLength: 14 }),
        fc.option(fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 5 })),
        (marks, sentences, badScheme) => {
          const q = open("long", "Explain.", {
            suggestedAnswer: sentences.map((s) => `Point ${s}`).join(" "),
            ...(badScheme ? { markingScheme: badScheme.map((m, i) => ({ point: `p${i}`, marks: m })) } : {}),
          });
          const paper = {
            ...fixturePaper(),
            sections: [{ id: uuid(), name: "S", questionType: "long" as const, items: [item(marks, q)] }],
          };
          const [entry] = buildAnswerKey(paper);
          const scheme = entry?.markingScheme ?? [];
          const sum = scheme.reduce((a, p) => a + p.marks, 0);
          return sum === marks && scheme.length <= marks && scheme.every((p) => p.marks >= 1);
        },
      ),
    );
  });
});

describe("PDF export", () => {
  it("prints the title, sections, every question, OR and page footers", async () => {
    const paper = fixturePaper();
    const bytes = await paperToPdf(paper);
    const { text } = await pdfText(bytes);
    const flat = squash(text);
    expect(flat).toContain(squash(paper.title));
    for (const q of allQuestions(paper)) expect(flat).toContain(squash(q.promptText, true));
    for (const s of paper.sections) expect(text).toContain(s.name);
    expect(text).toContain("OR");
    expect(text).toContain("Page 1 of");
    expect(text).toContain("Attempt any 3 of 4");
    expect(text).toContain("Maximum marks: 14");
    expect(text).toContain("General instructions");
  });

  it("breaks a long paper over pages without losing text", async () => {
    const paper = longPaper();
    const bytes = await paperToPdf(paper);
    const { text, totalPages } = await pdfText(bytes);
    expect(totalPages).toBeGreaterThanOrEqual(3);
    expect(text).toContain(`Page ${totalPages} of ${totalPages}`);
    const flat = squash(text.replace(/Page \d+ of \d+/g, ""));
    const occurrences = flat.split(squash(LONG_PROMPT, true)).length - 1;
    expect(occurrences).toBe(6);
  });

  it("prints the answer key with correct options and every marking-scheme point", async () => {
    const paper = fixturePaper();
    const { text, totalPages } = await pdfText(await answerKeyToPdf(paper));
    const flat = squash(text);
    expect(flat).toContain(squash("Answer key and marking scheme"));
    expect(totalPages).toBeGreaterThanOrEqual(1);
    for (const e of buildAnswerKey(paper)) {
      if (e.correctText) expect(flat).toContain(squash(e.correctText, true));
      for (const p of e.markingScheme) if (e.type !== "mcq") expect(flat).toContain(squash(p.point, true));
    }
  });

  it("is byte-identical for the same paper and carries its metadata", async () => {
    const paper = longPaper();
    const [a, b] = await Promise.all([paperToPdf(paper), paperToPdf(structuredClone(paper))]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const [k1, k2] = [await answerKeyToPdf(paper), await answerKeyToPdf(paper)];
    expect(Buffer.from(k1).equals(Buffer.from(k2))).toBe(true);
    const doc = await PDFDocument.load(a, { updateMetadata: false });
    expect(doc.getTitle()).toBe(paper.title);
    expect(doc.getCreator()).toBe("Paperwise");
    expect(doc.getModificationDate()?.toISOString()).toBe("2026-01-12T10:30:15.000Z");
    expect(doc.getPage(0).getSize()).toEqual({ width: 595, height: 842 });
  });

  it("renders a first page that pdftoppm can rasterise", async () => {
    mkdirSync(OUT, { recursive: true });
    const paper = fixturePaper();
    writeFileSync(path.join(OUT, "paper.pdf"), await paperToPdf(paper));
    writeFileSync(path.join(OUT, "answer-key.pdf"), await answerKeyToPdf(paper));
    writeFileSync(path.join(OUT, "long-paper.pdf"), await paperToPdf(longPaper()));
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      "60",
      "-f",
      "1",
      "-l",
      "1",
      path.join(OUT, "paper.pdf"),
      path.join(OUT, "paper"),
    ]);
    const png = path.join(OUT, "paper-1.png");
    expect(existsSync(png)).toBe(true);
    expect(statSync(png).size).toBeGreaterThan(5 * 1024);
  });
});

describe("DOCX export", () => {
  it("contains the title, every question and OR", async () => {
    const paper = fixturePaper();
    const buffer = await paperToDocx(paper);
    const { value } = await mammoth.extractRawText({ buffer });
    const flat = squash(value);
    expect(flat).toContain(squash(paper.title));
    for (const q of allQuestions(paper)) expect(flat).toContain(squash(q.promptText));
    expect(value).toMatch(/^OR$/m);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(path.join(OUT, "paper.docx"), buffer);
  });

  it("contains the answer key with the marking scheme", async () => {
    const paper = fixturePaper();
    const { value } = await mammoth.extractRawText({ buffer: await answerKeyToDocx(paper) });
    const flat = squash(value);
    for (const e of buildAnswerKey(paper)) {
      if (e.correctText) expect(flat).toContain(squash(e.correctText));
      for (const p of e.markingScheme)
        if (e.type !== "mcq") expect(flat).toContain(squash(`${p.point}[${p.marks}]`));
    }
  });

  it("is byte-identical for the same paper and stamps updatedAt", async () => {
    const paper = fixturePaper();
    const a = await paperToDocx(paper);
    await new Promise((r) => setTimeout(r, 1100));
    const b = await paperToDocx(structuredClone(paper));
    expect(a.equals(b)).toBe(true);
    const core = await (await JSZip.loadAsync(a)).file("docProps/core.xml")?.async("string");
    expect(core).toContain("2026-01-12T10:30:15Z");
    expect(core).toContain("Physics Unit Test: Light &amp; Electricity");
  });
});

describe("Markdown export", () => {
  it("prints every question and the key's answers", () => {
    const paper = fixturePaper();
    const md = paperToMarkdown(paper);
    for (const q of allQuestions(paper)) expect(md).toContain(escapeMarkdown(q.promptText));
    // What a reader sees: the rendered text holds every question as written.
    const text = micromark(md).replace(/<[^>]+>/g, "");
    for (const q of allQuestions(paper)) {
      const plain = q.promptText.replace(/\s+/g, " ").replace(/&/g, "&amp;").replace(/</g, "&lt;");
      expect(text.replace(/\s+/g, " ")).toContain(plain.replace(/>/g, "&gt;"));
    }
    expect(md).toContain("# Physics Unit Test");
    expect(md).toContain("**OR**");
    const key = answerKeyToMarkdown(paper);
    for (const e of buildAnswerKey(paper)) {
      if (e.correctText)
        expect(key).toContain(`(${e.correctLetter?.toLowerCase()}) ${escapeMarkdown(e.correctText)}`);
      for (const p of e.markingScheme)
        if (e.type !== "mcq") expect(key).toContain(`- ${escapeMarkdown(p.point)} — **${p.marks} mark`);
    }
  });
});

describe("Markdown export of hostile text", () => {
  const HOSTILE = [
    "<script>alert(1)</script> What is a cell?",
    'Which is right? <img src=x onerror="alert(1)">',
    "Read [the notes](javascript:alert(1)) and ![x](javascript:alert(2)) first.",
    'Open <javascript:alert(3)> or <a href="javascript:alert(4)">this</a>.',
    "A backslash before a tag: \\<b onmouseover=alert(5)>bold</b>",
    "[ref]: javascript:alert(6)\n\n[ref]",
  ];

  it("keeps raw HTML and link syntax from question text literal, even in a renderer that allows HTML", () => {
    const paper = fixturePaper();
    const first = paper.sections[0]!.items[0]!;
    first.question = { ...first.question, promptText: HOSTILE.join("\n"), options: HOSTILE.slice(0, 4) };
    for (const md of [paperToMarkdown(paper), answerKeyToMarkdown(paper)]) {
      // The most permissive CommonMark rendering: raw HTML and any link protocol pass through.
      const html = micromark(md, { allowDangerousHtml: true, allowDangerousProtocol: true });
      expect(html).not.toMatch(/<(script|img|a|b)\b/i);
      expect(html).not.toMatch(/javascript:[^<]*"/i);
      expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; What is a cell?");
      expect(html).toContain("[the notes](javascript:alert(1))");
    }
  });

  it("escapes every backslash, angle bracket, square bracket and ampersand", () => {
    expect(escapeMarkdown("a\\<b>[c](d) & e")).toBe("a\\\\\\<b\\>\\[c\\](d) \\& e");
    // Whatever the text, rendering it makes only Markdown's own block and emphasis elements: no
    // links, images or raw HTML.
    const STRUCTURE = /^(p|ul|ol|li|em|strong|code|pre|h[1-6]|hr|br|blockquote)$/;
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const html = micromark(escapeMarkdown(s), { allowDangerousHtml: true, allowDangerousProtocol: true });
        return [...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].every((m) => STRUCTURE.test(m[1]!));
      }),
      { numRuns: 500 },
    );
  });
});

describe("GIFT export", () => {
  it("escapes special characters and marks right and wrong options", () => {
    const paper = fixturePaper();
    const gift = paperToGift(paper);
    expect(gift.startsWith("// Physics Unit Test: Light & Electricity\n")).toBe(true);
    expect(gift).toContain(
      "::Q2 (1 mark)::[moodle]In set-builder notation, which is right\\: A \\= \\{x \\: x ≤ 5\\} \\# \\~ or \\\\ ?",
    );
    expect(giftEscape("{=~#}:\\")).toBe("\\{\\=\\~\\#\\}\\:\\\\");
    expect(giftEscape("<b> & [html]")).toBe("&lt;b&gt; &amp; [html]");
    for (const q of allQuestions(paper)) expect(gift).toContain(giftEscape(q.promptText));
    expect(gift).toContain("=[moodle]2μ#[moodle]Option 2 follows from the definition.");
    expect(gift).toContain("~[moodle]μ/2#[moodle]μ/2 confuses cause and effect.");
    expect(gift).toContain("::Q5-OR (3 marks)::");
    expect(gift).toMatch(
      /::Q7 \(5 marks\)::\[moodle\]Describe the refraction[^\n]* \{\n {2}####\[moodle\]Model answer/,
    );
    // Every unescaped brace opens or closes an answer block.
    const unescaped = gift.replace(/\\./g, "");
    expect(unescaped.split("{").length).toBe(unescaped.split("}").length);
  });
});

describe("QTI export", () => {
  it("is well-formed XML with every question, choices and the right answer", () => {
    const paper = fixturePaper();
    const qti = paperToQti(paper);
    expect(qti).toContain('<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2"');
    expect(qti).toContain("</questestinterop>");
    expect(wellFormed(qti)).toBe(true);
    expect([...qti].filter((c) => c < " " && c !== "\n" && c !== "\t")).toEqual([]);
    expect(qti).toContain("if x &lt; y &amp; z?");
    // Section A's "attempt any 3" keeps its 4 main questions; the OR pair keeps both.
    expect(qti.split("<item ").length - 1).toBe(8);
    expect(qti.split("</item>").length - 1).toBe(8);
    expect(qti).toContain('<varequal respident="response1">B</varequal>');
    expect(qti).toContain("<render_choice");
    expect(qti).toContain('<render_fib fibtype="String"');
    expect(qti).toContain('title="Physics Unit Test: Light &amp; Electricity"');
  });

  it("drops NUL and other C0 controls", () => {
    const paper = fixturePaper();
    const q = paper.sections[0]?.items[0]?.question;
    if (q) q.promptText = "Bad\u0000 text\u001B here\ttab";
    const qti = paperToQti(paper);
    expect(qti).toContain("Bad text here\ttab");
    expect(wellFormed(qti)).toBe(true);
  });
});

describe("exportPaper", () => {
  it("names files, sets content types and refuses an LMS answer key", async () => {
    const paper = fixturePaper();
    const pdf = await exportPaper(paper, "pdf", "paper");
    expect(pdf).toMatchObject({
      contentType: "application/pdf",
      filename: "physics-unit-test-light-electricity.pdf",
    });
    const docx = await exportPaper(paper, "docx", "answer-key");
    expect(docx.filename).toBe("physics-unit-test-light-electricity-answer-key.docx");
    expect(docx.contentType).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect((await exportPaper(paper, "md", "answer-key")).contentType).toBe("text/markdown; charset=utf-8");
    expect((await exportPaper(paper, "gift", "paper")).filename).toMatch(/\.gift\.txt$/);
    expect((await exportPaper(paper, "qti", "paper")).contentType).toBe("application/xml; charset=utf-8");
    await expect(exportPaper(paper, "gift", "answer-key")).rejects.toBeInstanceOf(AppError);
    await expect(exportPaper(paper, "qti", "answer-key")).rejects.toMatchObject({ code: "bad_request" });
    expect(slugify('Über Ölçü — 2024/25 "Final"')).toBe("uber-olcu-2024-25-final");
    expect(slugify("كتاب")).toBe("paper");
  });
});
