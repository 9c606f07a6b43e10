import { BLOOM_BANDS, DIFFICULTIES, QUESTION_TYPES } from "@/schema/enums.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import {
  BLOOM_BAND_OF,
  type ICheckRow,
  type IPaper,
  type IPaperCheck,
  type IPaperItem,
  type IPaperProblem,
  type IPaperSection,
} from "@/types/paper.types";

/** Marks a section counts towards the paper: with "attempt any N", only the N best-paid items. */
export function sectionMarks(section: Pick<IPaperSection, "items" | "attemptAny">): number {
  const marks = section.items.map((i) => i.marks).sort((a, b) => b - a);
  const counted = section.attemptAny !== undefined ? marks.slice(0, section.attemptAny) : marks;
  return counted.reduce((a, m) => a + m, 0);
}

/** Marks the paper adds up to (OR alternatives count once; "attempt any N" counts N). */
export function countedMarks(paper: Pick<IPaper, "sections">): number {
  return paper.sections.reduce((a, s) => a + sectionMarks(s), 0);
}

/**
 * Weight of each item in the blueprint totals. With "attempt any N of M" every item carries
 * N/M of its marks, so a section's contribution equals what a student can score in it.
 */
function itemWeights(section: IPaperSection): number[] {
  if (section.items.length === 0) return [];
  const factor =
    section.attemptAny !== undefined && section.items.length > 0
      ? sectionMarks(section) / section.items.reduce((a, i) => a + i.marks, 0)
      : 1;
  return section.items.map((i) => i.marks * factor);
}

/** Structural problems that make a paper unfit to print. */
export function paperProblems(paper: Pick<IPaper, "sections" | "totalMarks">): IPaperProblem[] {
  const problems: IPaperProblem[] = [];
  if (paper.sections.length === 0) problems.push({ path: "sections", message: "The paper has no sections" });
  for (const [si, s] of paper.sections.entries()) {
    if (s.items.length === 0) {
      problems.push({ path: `sections.${si}.items`, message: `Section "${s.name}" has no questions` });
    }
    if (s.attemptAny !== undefined && s.attemptAny > s.items.length && s.items.length > 0) {
      problems.push({
        path: `sections.${si}.attemptAny`,
        message: `Section "${s.name}" says attempt any ${s.attemptAny} but has ${s.items.length}`,
      });
    }
    for (const [ii, item] of s.items.entries()) {
      if (s.marksPerQuestion !== undefined && item.marks !== s.marksPerQuestion) {
        problems.push({
          path: `sections.${si}.items.${ii}.marks`,
          message: `Question ${ii + 1} of "${s.name}" carries ${item.marks} marks; the section gives ${s.marksPerQuestion}`,
        });
      }
      const scheme = item.question.markingScheme;
      if (scheme && scheme.length > 0) {
        const sum = scheme.reduce((a, p) => a + p.marks, 0);
        if (sum !== item.marks) {
          problems.push({
            path: `sections.${si}.items.${ii}.question.markingScheme`,
            message: `The marking scheme of question ${ii + 1} in "${s.name}" adds up to ${sum}, not ${item.marks}`,
          });
        }
      }
    }
  }
  const counted = countedMarks(paper);
  if (counted !== paper.totalMarks) {
    problems.push({
      path: "totalMarks",
      message: `The questions add up to ${counted} marks but the paper is out of ${paper.totalMarks}`,
    });
  }
  return problems;
}

function rows(
  keys: readonly string[],
  actual: Map<string, number>,
  targets: Partial<Record<string, number>> | undefined,
  tolerance: number,
): ICheckRow[] {
  const all = new Set<string>([...keys.filter((k) => actual.has(k) || targets?.[k] !== undefined)]);
  for (const k of actual.keys()) all.add(k);
  for (const k of Object.keys(targets ?? {})) all.add(k);
  return [...all].map((key) => {
    const value = round(actual.get(key) ?? 0);
    const target = targets?.[key];
    const status =
      target === undefined || Math.abs(value - target) <= tolerance + 1e-9
        ? "ok"
        : value < target
          ? "under"
          : "over";
    return { key, ...(target !== undefined ? { target } : {}), actual: value, status };
  });
}

const round = (x: number) => Math.round(x * 100) / 100;

function add(map: Map<string, number>, key: string, value: number) {
  map.set(key, (map.get(key) ?? 0) + value);
}

/** The live blueprint check: totals per chapter, Bloom level/band, type and difficulty. */
export function checkPaper(paper: Pick<IPaper, "sections" | "totalMarks" | "blueprint">): IPaperCheck {
  const chapters = new Map<string, number>();
  const bloom = new Map<string, number>();
  const bands = new Map<string, number>();
  const types = new Map<string, number>();
  const difficulty = new Map<string, number>();
  for (const section of paper.sections) {
    const weights = itemWeights(section);
    section.items.forEach((item: IPaperItem, i) => {
      const w = weights[i] ?? 0;
      const q = item.question;
      add(chapters, q.chapter ?? "Unassigned", w);
      add(bloom, q.bloomLevel, w);
      add(bands, BLOOM_BAND_OF[q.bloomLevel as EBloomLevel], w);
      add(types, q.type, w);
      add(difficulty, q.difficulty, w);
    });
  }
  const counted = countedMarks(paper);
  const bp = paper.blueprint;
  const tolerance = bp?.tolerance ?? 0;
  // Difficulty targets are shares of the paper, in percent.
  const difficultyShare = new Map(
    [...difficulty].map(([k, v]) => [k, counted > 0 ? (100 * v) / counted : 0] as const),
  );
  const check: IPaperCheck = {
    countedMarks: counted,
    totalMarks: paper.totalMarks,
    problems: paperProblems(paper),
    chapters: rows([], chapters, bp?.chapters, tolerance),
    bloom: rows(BLOOM_LEVELS, bloom, bp?.bloom, tolerance),
    bloomBands: rows(BLOOM_BANDS, bands, bp?.bloomBands, tolerance),
    types: rows(QUESTION_TYPES, types, bp?.types, tolerance),
    difficulty: rows(DIFFICULTIES, difficultyShare, bp?.difficulty, Math.max(tolerance, 5)),
    blueprintMet: false,
  };
  const targeted = [check.chapters, check.bloom, check.bloomBands, check.types, check.difficulty].flat();
  check.blueprintMet = check.problems.length === 0 && targeted.every((r) => r.status === "ok");
  return check;
}

/** Item numbers as printed: running across sections, 1-based. */
export function numberItems(paper: Pick<IPaper, "sections">): Map<string, number> {
  const numbers = new Map<string, number>();
  let n = 0;
  for (const s of paper.sections) for (const item of s.items) numbers.set(item.id, ++n);
  return numbers;
}
