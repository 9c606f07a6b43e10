import type { ICheckRow, IPaper, IPaperCheck } from "@/types/paper.types";
import { checkPaper } from "./check";

/** Formats a draft can be exported in: the printable ones (an LMS import of a draft is not offered). */
export const DRAFT_FORMATS = ["pdf", "docx", "md"] as const;

const GROUP_WORDS: Record<"chapters" | "bloom" | "bloomBands" | "types" | "difficulty", string> = {
  chapters: "Chapter",
  bloom: "Bloom level",
  bloomBands: "Cognitive level",
  types: "Question type",
  difficulty: "Difficulty",
};

/** A blueprint row off its target, in the teacher's words ("Bloom level Apply: 4 of 10 marks (under)"). */
function rowNote(group: keyof typeof GROUP_WORDS, row: ICheckRow): string {
  const unit = group === "difficulty" ? " %" : " marks";
  return `${GROUP_WORDS[group]} ${row.key}: ${row.actual} of ${row.target}${unit} (${row.status})`;
}

/** Whether the paper has any target set (the blueprint check means something only then). */
export function hasTargets(blueprint: IPaper["blueprint"]): boolean {
  if (!blueprint) return false;
  return (["chapters", "bloom", "bloomBands", "types", "difficulty"] as const).some(
    (k) => Object.keys(blueprint[k] ?? {}).length > 0,
  );
}

/**
 * What keeps a paper from being final: its structural problems (marks that do not add up, empty
 * sections, …) first, then each blueprint target it misses.
 */
export function unmetNotes(check: IPaperCheck): string[] {
  const notes = check.problems.map((p) => p.message);
  for (const group of Object.keys(GROUP_WORDS) as (keyof typeof GROUP_WORDS)[]) {
    for (const row of check[group]) {
      if (row.target !== undefined && row.status !== "ok") notes.push(rowNote(group, row));
    }
  }
  return notes;
}

/**
 * The paper as a draft for export: "DRAFT" before its title (in the header of every format and in
 * the file name) and, first among the instructions, what is still unmet. The stored paper is not
 * changed.
 */
export function asDraft(paper: IPaper): IPaper {
  const notes = unmetNotes(checkPaper(paper));
  const note =
    notes.length === 0
      ? "DRAFT: not yet checked as final."
      : `DRAFT, not final. Still unmet: ${notes.slice(0, 8).join("; ")}${notes.length > 8 ? `; and ${notes.length - 8} more` : ""}.`;
  return { ...paper, title: `DRAFT — ${paper.title}`, instructions: [note, ...paper.instructions] };
}
