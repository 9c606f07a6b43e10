"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm";
import { NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useAddToPaper, useCreatePaper, usePapers } from "@/hooks/use-papers";
import { plural } from "@/lib/text/plural";
import type { EPaperTemplate } from "@/types/paper.types";

/**
 * The first choice (and the default when no paper of this class and subject exists) is a paper
 * made for exactly these questions: one section, their own marks, a total that adds up, so it can
 * be exported as it is. The templates fix marks per section (a unit test's short answers carry 2
 * marks, the generator's default 3): a question placed there takes the section's marks, and the
 * paper builder says what is missing before it exports.
 */
const FIT = "new:fit" as const;
const NEW: { value: `new:${EPaperTemplate}`; label: string }[] = [
  { value: "new:unit-test-20", label: "New paper: unit test (20 marks)" },
  { value: "new:board-80", label: "New paper: board paper (80 marks)" },
  { value: "new:blank", label: "New blank paper" },
];

/**
 * "Add to paper" for the generation view: the picked questions (the approved ones) go into an
 * existing paper of the same class and subject, or a new one from a template.
 */
export function AddToPaper({
  filters,
  questionIds,
  setTitle,
  marks,
}: {
  filters: { board: string; grade: string; subject: string };
  questionIds: string[];
  setTitle: string;
  /** Marks of the questions to add together. */
  marks: number;
}) {
  const papers = usePapers();
  const create = useCreatePaper();
  const add = useAddToPaper();
  const [target, setTarget] = useState<string>("");
  const [opened, setOpened] = useState<{ id: string; title: string } | null>(null);
  const confirm = useConfirm();
  const all = papers.data?.papers ?? [];
  const isMatch = (p: (typeof all)[number]) =>
    p.board === filters.board && p.grade === filters.grade && p.subject === filters.subject;
  const matching = all.filter(isMatch);
  // Papers of another class or subject are offered too, under their own heading, and asked about.
  const others = all.filter((p) => !isMatch(p));
  const hasRoom = (p: (typeof all)[number]) => p.countedMarks + marks <= p.totalMarks;
  // An open paper of this subject with room for these marks, else a new one made for them: never,
  // by default, one these marks would take over its maximum.
  const roomy = matching.find(hasRoom);
  const choice = target || (roomy?.id ?? FIT);
  const chosen = all.find((p) => p.id === choice);
  // A new paper is named after the set; a second one gets "2", not the same name as the first.
  const newTitle = uniqueTitle(
    setTitle,
    all.map((p) => p.title),
  );
  const over = chosen !== undefined && !hasRoom(chosen);
  const otherSubject = chosen !== undefined && !isMatch(chosen);
  const busy = create.isPending || add.isPending;
  // A double click lands both clicks before React re-renders the button disabled: the second one
  // must not add (and toast) again, so a ref, set synchronously, guards the run.
  const running = useRef(false);

  async function run() {
    if (running.current) return;
    running.current = true;
    try {
      if (chosen && otherSubject) {
        const ok = await confirm({
          title: `Add to a ${chosen.subject} paper?`,
          description: `${questionIds.length === 1 ? "This question is" : "These questions are"} from ${filters.subject} (class ${filters.grade}); the paper is ${chosen.subject} (class ${chosen.grade}) — add anyway?`,
          confirmLabel: "Add anyway",
        });
        if (!ok) return;
      }
      if (chosen && over) {
        const ok = await confirm({
          title: "Go over the paper's maximum?",
          description: `“${chosen.title}” has ${chosen.countedMarks} of ${plural(chosen.totalMarks, "mark")}; these ${plural(marks, "mark")} take it to ${chosen.countedMarks + marks}, and it cannot be exported until the marks add up again.`,
          confirmLabel: "Add anyway",
        });
        if (!ok) return;
      }
      let paperId = choice;
      if (choice === FIT) {
        const created = await create.mutateAsync({
          template: "blank",
          title: newTitle,
          totalMarks: Math.max(1, marks),
          ...filters,
        });
        paperId = created.paper.id;
      } else if (choice.startsWith("new:")) {
        const template = choice.slice(4) as EPaperTemplate;
        const created = await create.mutateAsync({ template, title: newTitle, ...filters });
        paperId = created.paper.id;
      }
      const res = await add.mutateAsync({ paperId, questionIds });
      setOpened({ id: res.paper.id, title: res.paper.title });
      // The next default is again a paper with room (this one may now be full).
      setTarget("");
      toast.success(
        `${plural(res.added, "question")} added to “${res.paper.title}”${res.skipped ? `, ${res.skipped} already there` : ""}`,
      );
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "Could not add to the paper");
    } finally {
      running.current = false;
    }
  }

  return (
    <div
      className="flex flex-wrap items-end gap-2 rounded-md border border-border bg-card p-3"
      data-testid="add-to-paper"
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor="paper-target">Add approved questions to</Label>
        <NativeSelect id="paper-target" value={choice} onChange={(e) => setTarget(e.target.value)}>
          {matching.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title} ({p.countedMarks}/{plural(p.totalMarks, "mark")}){hasRoom(p) ? "" : " — no room"}
            </option>
          ))}
          <option value={FIT}>New paper for these questions ({plural(marks, "mark")})</option>
          {NEW.map((n) => (
            <option key={n.value} value={n.value}>
              {n.label}
            </option>
          ))}
          {others.length > 0 && (
            <optgroup label="Other classes and subjects">
              {others.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.title}, {p.subject} {p.grade} ({p.countedMarks}/{plural(p.totalMarks, "mark")})
                </option>
              ))}
            </optgroup>
          )}
        </NativeSelect>
      </div>
      <Button
        disabled={questionIds.length === 0 || busy}
        onClick={() => void run()}
        data-testid="add-to-paper-submit"
      >
        {busy ? "Adding…" : `Add ${questionIds.length} to paper`}
      </Button>
      {questionIds.length === 0 && (
        <span className="text-xs text-muted-foreground">Approve the questions you want first.</span>
      )}
      {questionIds.length > 0 && !target && matching.length > 0 && !roomy && (
        <span className="text-xs text-muted-foreground" data-testid="no-room">
          None of your {filters.subject} papers has room for {plural(marks, "more mark")}, so a new paper is
          chosen.
        </span>
      )}
      {questionIds.length > 0 && over && (
        <span className="text-xs text-destructive" data-testid="over-full">
          “{chosen.title}” has {chosen.countedMarks} of {plural(chosen.totalMarks, "mark")}: these{" "}
          {plural(marks, "mark")} take it over its maximum.
        </span>
      )}
      {opened && (
        <Link
          href={`/papers/${opened.id}`}
          className="text-sm text-primary hover:underline"
          data-testid="open-paper"
        >
          Open “{opened.title}” →
        </Link>
      )}
    </div>
  );
}

/** "Biology test", else "Biology test 2", "Biology test 3", … (the first free one). */
export function uniqueTitle(title: string, taken: readonly string[]): string {
  const used = new Set(taken.map((t) => t.trim().toLowerCase()));
  if (!used.has(title.trim().toLowerCase())) return title;
  for (let n = 2; ; n++) if (!used.has(`${title} ${n}`.trim().toLowerCase())) return `${title} ${n}`;
}
