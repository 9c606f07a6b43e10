"use client";

import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert, Skeleton } from "@/components/ui/misc";
import { useQuestionSearch } from "@/hooks/use-papers";
import { plural } from "@/lib/text/plural";
import { QUESTION_TYPES } from "@/schema/enums.schema";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import type { IPaperSection } from "@/types/paper.types";

/** "Add from previous sets": search the teacher's generated questions and copy picked ones in. */
export function AddQuestions({
  subject,
  sections,
  present,
  busy,
  onAdd,
  onClose,
}: {
  /** The paper's subject: a question from another subject is added only after the teacher agrees. */
  subject: string;
  sections: IPaperSection[];
  /** Source question ids already in the paper. */
  present: Set<string>;
  busy: boolean;
  onAdd: (questionIds: string[], sectionId: string | undefined) => void;
  onClose: () => void;
}) {
  const [filters, setFilters] = useState({ type: "", bloomLevel: "", chapter: "", q: "" });
  const [debounced, setDebounced] = useState(filters);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [sectionId, setSectionId] = useState("");
  const search = useQuestionSearch(debounced);
  const confirm = useConfirm();
  // Typing in the word filters should not fire a request per keystroke.
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(filters), 250);
    return () => window.clearTimeout(t);
  }, [filters]);
  const set = (patch: Partial<typeof filters>) => setFilters((cur) => ({ ...cur, ...patch }));
  const rows = search.data?.questions ?? [];
  return (
    <section
      aria-labelledby="add-title"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
      data-testid="add-questions"
    >
      <div className="flex items-center justify-between">
        <h2 id="add-title" className="font-semibold">
          Add questions from your sets
        </h2>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
      <div className="grid grid-cols-2 gap-2 md:grid-cols-4">
        <div className="flex flex-col gap-1">
          <Label htmlFor="aq-type">Type</Label>
          <NativeSelect id="aq-type" value={filters.type} onChange={(e) => set({ type: e.target.value })}>
            <option value="">Any</option>
            {QUESTION_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="aq-bloom">Bloom level</Label>
          <NativeSelect
            id="aq-bloom"
            value={filters.bloomLevel}
            onChange={(e) => set({ bloomLevel: e.target.value })}
          >
            <option value="">Any</option>
            {BLOOM_LEVELS.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="aq-chapter">Chapter</Label>
          <Input
            id="aq-chapter"
            value={filters.chapter}
            placeholder="number or name"
            onChange={(e) => set({ chapter: e.target.value })}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="aq-q">Words</Label>
          <Input
            id="aq-q"
            value={filters.q}
            placeholder="in the question"
            onChange={(e) => set({ q: e.target.value })}
          />
        </div>
      </div>
      {search.isPending && <Skeleton className="h-20" />}
      {search.isError && <Alert variant="destructive">{search.error.message}</Alert>}
      {search.data && rows.length === 0 && (
        <p className="text-sm text-muted-foreground">
          No saved questions match. Generate some on the Questions page, or loosen the filters.
        </p>
      )}
      <ul className="flex max-h-80 flex-col gap-1 overflow-auto" data-testid="question-pool">
        {rows.map((q) => {
          const inPaper = present.has(q.id);
          return (
            <li key={q.id}>
              <label className="flex items-start gap-2 rounded-md p-1.5 text-sm hover:bg-muted">
                <input
                  type="checkbox"
                  className="mt-1"
                  disabled={inPaper}
                  checked={picked.has(q.id)}
                  onChange={(e) =>
                    setPicked((cur) => {
                      const n = new Set(cur);
                      if (e.target.checked) n.add(q.id);
                      else n.delete(q.id);
                      return n;
                    })
                  }
                />
                <span className="flex flex-col gap-0.5">
                  <span>{q.promptText}</span>
                  <span className="flex flex-wrap gap-1">
                    <Badge variant="outline">{q.type}</Badge>
                    <Badge variant="outline">{q.bloomLevel}</Badge>
                    <Badge variant="outline">{plural(q.marks, "mark")}</Badge>
                    {q.chapter && <Badge variant="outline">Ch {q.chapter}</Badge>}
                    {!sameSubject(q.subject, subject) && (
                      <Badge variant="destructive" data-testid="other-subject">
                        {q.subject}
                      </Badge>
                    )}
                    {q.status === "approved" && <Badge variant="success">approved</Badge>}
                    {inPaper && <Badge>in paper</Badge>}
                  </span>
                </span>
              </label>
              {q.earlierVersions && q.earlierVersions.length > 0 && (
                <details className="ml-7 text-xs text-muted-foreground" data-testid="earlier-versions">
                  <summary className="cursor-pointer">
                    {plural(q.earlierVersions.length, "earlier version")} (replaced by Regenerate)
                  </summary>
                  <ul className="mt-1 flex flex-col gap-1">
                    {q.earlierVersions.map((v) => (
                      <li key={v.id}>{v.promptText}</li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="aq-section">Into</Label>
          <NativeSelect id="aq-section" value={sectionId} onChange={(e) => setSectionId(e.target.value)}>
            <option value="">The section that fits each question</option>
            {sections.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.questionType})
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button
          disabled={picked.size === 0 || busy}
          data-testid="add-picked"
          onClick={async () => {
            const other = rows.filter((q) => picked.has(q.id) && !sameSubject(q.subject, subject));
            if (other.length > 0) {
              const subjects = [...new Set(other.map((q) => q.subject))].join(", ");
              const ok = await confirm({
                title: `Add ${other.length === 1 ? "a question" : `${other.length} questions`} from ${subjects}?`,
                description: `${other.length === 1 ? "This question is" : "These questions are"} from ${subjects}; the paper is ${subject} — add anyway?`,
                confirmLabel: "Add anyway",
              });
              if (!ok) return;
            }
            onAdd([...picked], sectionId || undefined);
            setPicked(new Set());
          }}
        >
          Add {picked.size} to paper
        </Button>
      </div>
    </section>
  );
}

const sameSubject = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
