import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DOMParser } from "@xmldom/xmldom";
import { parse as parseGift } from "gift-pegjs";
import { afterAll, describe, expect, it } from "vitest";
import { buildAnswerKey } from "@/lib/papers/answer-key";
import { checkPaper } from "@/lib/papers/check";
import { paperToGift } from "@/lib/papers/export-gift";
import { clean } from "@/lib/papers/export-lms";
import { paperToMoodleXml } from "@/lib/papers/export-moodle";
import { paperToQti } from "@/lib/papers/export-qti";
import { hostilePaper, questionsOf } from "../support/hostile-paper";

/**
 * The LMS exports read back by real parsers: GIFT by gift-pegjs (the grammar of Moodle's GIFT
 * format), QTI and Moodle XML by an XML parser (@xmldom/xmldom) and, when installed, xmllint.
 * The IMS QTI 1.2.1 XSD is not shipped here (its licence is not clearly redistributable), so QTI is
 * checked structurally: namespace, element order, marks, feedback links and choice groups.
 */

const paper = hostilePaper();
const questions = questionsOf(paper);
const key = buildAnswerKey(paper);
const entry = (itemId: string, alternative: boolean) =>
  key.find((e) => e.itemId === itemId && e.isAlternative === alternative)!;
/** What a reader sees: entities decoded, whitespace folded. */
const seen = (s: string) =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
const plain = (s: string) => clean(s).replace(/\s+/g, " ").trim();
const dir = mkdtempSync(path.join(tmpdir(), "paperwise-lms-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function xmllint(xml: string, name: string): void {
  if (!existsSync("/usr/bin/xmllint")) return;
  const file = path.join(dir, name);
  writeFileSync(file, xml);
  // Throws (and fails the test) on any well-formedness error.
  execFileSync("/usr/bin/xmllint", ["--noout", file], { stdio: "pipe" });
}

const xmlErrors: string[] = [];
const parser = new DOMParser({
  errorHandler: (level: string, message: unknown) => {
    if (level !== "warning") xmlErrors.push(String(message));
  },
});
const children = (el: Element, name?: string) =>
  Array.from(el.childNodes as ArrayLike<Node>).filter(
    (n): n is Element => n.nodeType === 1 && (!name || (n as Element).localName === name),
  );
const child = (el: Element, name: string) => children(el, name)[0]!;
const textOf = (el: Element | undefined) => el?.textContent ?? "";

describe("GIFT, parsed by gift-pegjs", () => {
  const gift = paperToGift(paper);
  const parsed = parseGift(gift);
  const qs = parsed.filter((q) => q.type !== "Category");

  it("reads every question, alternatives included, with its type and mark in the title", () => {
    expect(qs).toHaveLength(questions.length);
    for (const [i, q] of qs.entries()) {
      const want = questions[i]!;
      expect(q.type).toBe(want.question.type === "mcq" ? "MC" : "Essay");
      expect((q as { title: string }).title).toBe(
        `Q${want.number}${want.alternative ? "-OR" : ""} (${want.marks} mark${want.marks === 1 ? "" : "s"})`,
      );
    }
  });

  it("keeps hostile text as text: the stem reads as written, never as markup", () => {
    for (const [i, q] of qs.entries()) {
      const stem = (q as { stem: { format: string; text: string } }).stem;
      expect(stem.format).toBe("moodle");
      expect(stem.text).not.toMatch(/<[a-z/]/i);
      expect(seen(stem.text)).toBe(plain(questions[i]!.question.promptText));
    }
  });

  it("marks the right option and gives feedback on every option", () => {
    for (const [i, q] of qs.entries()) {
      const want = questions[i]!.question;
      if (want.type !== "mcq") continue;
      const choices = (
        q as { choices: { isCorrect: boolean; text: { text: string }; feedback: { text: string } }[] }
      ).choices;
      expect(choices.map((c) => c.isCorrect)).toEqual(want.options!.map((_, j) => j === want.correctIndex));
      expect(choices.map((c) => seen(c.text.text))).toEqual(want.options!.map(plain));
      for (const c of choices) expect(c.feedback?.text).toBeTruthy();
    }
  });

  it("gives essays the model answer and marking scheme as general feedback", () => {
    for (const [i, q] of qs.entries()) {
      const want = questions[i]!;
      if (want.question.type === "mcq") continue;
      const feedback = seen((q as { globalFeedback: { text: string } }).globalFeedback.text);
      const e = entry(want.itemId, want.alternative);
      expect(feedback).toContain(plain(e.suggestedAnswer!));
      for (const p of e.markingScheme) expect(feedback).toContain(plain(p.point));
    }
  });

  it("puts each OR pair in a category of its own", () => {
    const categories = parsed.filter((q) => q.type === "Category").map((c) => (c as { title: string }).title);
    expect(categories.filter((c) => c.endsWith("(choose one)"))).toHaveLength(3);
    expect(categories.every((c) => !/[<>]/.test(c))).toBe(true);
  });
});

describe("QTI 1.2.1, checked structurally", () => {
  const qti = paperToQti(paper);
  xmlErrors.length = 0;
  const doc = parser.parseFromString(qti, "application/xml");
  const root = doc.documentElement!;

  it("is well-formed (xmllint) with the IMS namespace on the root", () => {
    xmllint(qti, "paper.qti.xml");
    expect(xmlErrors).toEqual([]);
    expect(root.localName).toBe("questestinterop");
    expect(root.namespaceURI).toBe("http://www.imsglobal.org/xsd/ims_qtiasiv1p2");
    const assessments = children(root, "assessment");
    expect(assessments).toHaveLength(1);
    // One root section (the Common Cartridge profile allows no second one).
    expect(children(assessments[0]!, "section")).toHaveLength(1);
  });

  const rootSection = child(child(root, "assessment"), "section");
  const items = Array.from(doc.getElementsByTagName("item"));

  it("holds every question with its text, type, marks and elements in schema order", () => {
    expect(items).toHaveLength(questions.length - 1); // Section B's "any 2" group keeps main questions only
    const order = ["itemmetadata", "presentation", "resprocessing", "itemfeedback"];
    for (const el of items) {
      const names = children(el).map((c) => c.localName);
      const ranks = names.map((n) => order.indexOf(n!));
      expect(ranks.every((r) => r >= 0)).toBe(true);
      expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
      const fields = new Map(
        Array.from(el.getElementsByTagName("qtimetadatafield")).map((f) => [
          textOf(child(f, "fieldlabel")),
          textOf(child(f, "fieldentry")),
        ]),
      );
      expect(["multiple_choice_question", "essay_question"]).toContain(fields.get("question_type"));
      const max = el.getElementsByTagName("decvar")[0]!.getAttribute("maxvalue");
      expect(fields.get("points_possible")).toBe(max);
      const stem = textOf(child(child(el, "presentation"), "material"));
      expect(questions.some((q) => plain(q.question.promptText) === stem.replace(/\s+/g, " ").trim())).toBe(
        true,
      );
    }
  });

  it("adds up to the paper's marks: OR pairs and 'attempt any' sections are groups that draw N", () => {
    let total = 0;
    for (const el of children(rootSection)) {
      if (el.localName === "item")
        total += Number(el.getElementsByTagName("decvar")[0]!.getAttribute("maxvalue"));
      if (el.localName === "section") {
        const pick = Number(textOf(el.getElementsByTagName("selection_number")[0]));
        const each = Number(textOf(el.getElementsByTagName("points_per_item")[0]));
        expect(pick).toBeLessThan(children(el, "item").length);
        total += pick * each;
      }
    }
    expect(total).toBe(checkPaper(paper).countedMarks);
    expect(total).toBe(paper.totalMarks);
  });

  it("links a feedback to every option, and the marking scheme to every open question", () => {
    for (const el of items) {
      const fbIds = new Set(children(el, "itemfeedback").map((f) => f.getAttribute("ident")));
      const links = Array.from(el.getElementsByTagName("displayfeedback")).map((d) =>
        d.getAttribute("linkrefid"),
      );
      for (const l of links) expect(fbIds.has(l)).toBe(true);
      const labels = el.getElementsByTagName("response_label");
      if (labels.length > 0) expect(links).toHaveLength(labels.length);
      else {
        const general = textOf(children(el, "itemfeedback")[0]);
        expect(general).toContain("Model answer:");
        expect(general).toContain("Marking scheme");
      }
    }
  });
});

describe("Moodle XML", () => {
  const xml = paperToMoodleXml(paper);
  xmlErrors.length = 0;
  const doc = parser.parseFromString(xml, "application/xml");
  const all = children(doc.documentElement!, "question");
  const qs = all.filter((q) => q.getAttribute("type") !== "category");

  it("is well-formed and holds every question with its type, text and default mark", () => {
    xmllint(xml, "paper.moodle.xml");
    expect(xmlErrors).toEqual([]);
    expect(doc.documentElement!.localName).toBe("quiz");
    expect(qs).toHaveLength(questions.length);
    for (const [i, q] of qs.entries()) {
      const want = questions[i]!;
      expect(q.getAttribute("type")).toBe(want.question.type === "mcq" ? "multichoice" : "essay");
      expect(textOf(child(q, "defaultgrade"))).toBe(String(want.marks));
      const stem = child(q, "questiontext");
      expect(stem.getAttribute("format")).toBe("plain_text");
      expect(textOf(stem)).toBe(clean(want.question.promptText));
    }
  });

  it("scores the right option and gives feedback per option", () => {
    for (const [i, q] of qs.entries()) {
      const want = questions[i]!.question;
      if (want.type !== "mcq") continue;
      const answers = children(q, "answer");
      expect(answers.map((a) => a.getAttribute("fraction"))).toEqual(
        want.options!.map((_, j) => (j === want.correctIndex ? "100" : "0")),
      );
      expect(answers.map((a) => textOf(child(a, "text")))).toEqual(want.options!.map(clean));
      for (const a of answers) expect(textOf(child(a, "feedback")).length).toBeGreaterThan(0);
    }
  });

  it("gives the grader the model answer and marking scheme of every essay", () => {
    for (const [i, q] of qs.entries()) {
      const want = questions[i]!;
      if (want.question.type === "mcq") continue;
      const info = textOf(child(q, "graderinfo"));
      const e = entry(want.itemId, want.alternative);
      expect(info).toContain(clean(e.suggestedAnswer!));
      for (const p of e.markingScheme) expect(info).toContain(clean(p.point));
    }
  });

  it("puts each OR pair in a category of its own", () => {
    const categories = all
      .filter((q) => q.getAttribute("type") === "category")
      .map((c) => textOf(child(child(c, "category"), "text")));
    expect(categories.filter((c) => c.endsWith("(choose one)"))).toHaveLength(3);
  });
});
