"use client";

import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import Link from "next/link";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Input, NativeSelect, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert, Skeleton } from "@/components/ui/misc";
import { type TSaveState, usePaperEditor } from "@/hooks/use-paper-editor";
import { usePyqCheck } from "@/hooks/use-papers";
import { numberItems, sectionMarks } from "@/lib/papers/check";
import { exportUrl, postPaperItems, postRegenerateItem, postSwapItem } from "@/services/papers.services";
import { QUESTION_TYPES } from "@/types/generation.types";
import type { EExportFormat, IPaper, IPaperBlueprint, IPaperSection } from "@/types/paper.types";
import { AddQuestions } from "./add-questions";
import { BlueprintPanel } from "./blueprint-panel";
import { PaperItemRow } from "./paper-item";

const SAVE_TEXT: Record<TSaveState, string> = {
  saved: "All changes saved",
  dirty: "Unsaved changes…",
  saving: "Saving…",
  error: "Not saved",
  conflict: "Changed elsewhere",
};

const EXPORTS: { format: EExportFormat; label: string }[] = [
  { format: "pdf", label: "PDF" },
  { format: "docx", label: "Word (DOCX)" },
  { format: "md", label: "Markdown" },
  { format: "gift", label: "Moodle GIFT" },
  { format: "qti", label: "QTI 1.2" },
];

/** The paper builder: sections and questions on the left, the live blueprint check and exports on the right. */
export function PaperBuilder({ id }: { id: string }) {
  const editor = usePaperEditor(id);
  const { draft, check, state } = editor;
  const pyq = usePyqCheck(id, state === "saved" ? draft?.version : undefined);
  const [busy, setBusy] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  // Leaving with unsaved edits asks first.
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (state === "dirty" || state === "saving" || state === "error") e.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [state]);

  if (editor.query.isError) {
    return (
      <Alert variant="destructive">
        {editor.query.error.message} <Link href="/papers">Back to papers</Link>
      </Alert>
    );
  }
  if (!draft || !check) return <Skeleton className="h-96" data-testid="paper-loading" />;

  const numbers = numberItems(draft);
  const present = new Set(
    draft.sections.flatMap((s) =>
      s.items.map((i) => i.question.sourceQuestionId).filter((x): x is string => !!x),
    ),
  );
  const exportReady = check.problems.length === 0 && state === "saved";

  async function server(
    label: string,
    action: (version: number) => ReturnType<typeof postSwapItem>,
    ok?: string,
  ) {
    setBusy(label);
    try {
      await editor.runServer(action);
      if (ok) toast.success(ok);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "That did not work");
    } finally {
      setBusy(null);
    }
  }

  const updateSection = (sectionId: string, edit: (s: IPaperSection) => void) =>
    editor.update((p) => {
      const s = p.sections.find((x) => x.id === sectionId);
      if (s) edit(s);
    });

  function onDragEnd(section: IPaperSection, e: DragEndEvent) {
    if (!e.over || e.active.id === e.over.id) return;
    updateSection(section.id, (s) => {
      const from = s.items.findIndex((i) => i.id === e.active.id);
      const to = s.items.findIndex((i) => i.id === e.over!.id);
      if (from >= 0 && to >= 0) s.items = arrayMove(s.items, from, to);
    });
  }

  function setTarget(
    group: keyof Omit<IPaperBlueprint, "tolerance">,
    key: string,
    value: number | undefined,
  ) {
    editor.update((p) => {
      const bp: IPaperBlueprint = p.blueprint ?? { tolerance: 0 };
      const targets = { ...(bp[group] as Record<string, number> | undefined) };
      if (value === undefined) delete targets[key];
      else targets[key] = value;
      (bp as unknown as Record<string, unknown>)[group] = Object.keys(targets).length ? targets : undefined;
      p.blueprint = bp;
    });
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link href="/papers" className="text-sm text-primary hover:underline">
          ← All papers
        </Link>
        <span
          className={
            state === "error" || state === "conflict"
              ? "text-sm text-destructive"
              : "text-sm text-muted-foreground"
          }
          aria-live="polite"
          data-testid="save-state"
          data-state={state}
        >
          {SAVE_TEXT[state]}
        </span>
      </div>
      {(state === "error" || state === "conflict") && (
        <Alert variant="destructive" data-testid="save-error">
          {editor.error}{" "}
          {state === "conflict" ? (
            <Button size="sm" variant="outline" onClick={() => void editor.reload()}>
              Reload the paper
            </Button>
          ) : (
            <Button size="sm" variant="outline" onClick={() => void editor.save().catch(() => undefined)}>
              Retry saving
            </Button>
          )}
        </Alert>
      )}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <PaperHeader paper={draft} onChange={(edit) => editor.update(edit)} />
          {draft.sections.map((section, si) => (
            <section
              key={section.id}
              className="flex flex-col gap-2 rounded-lg border border-border bg-card p-4"
              data-testid="paper-section"
              aria-label={section.name}
            >
              <div className="flex flex-wrap items-end gap-2">
                <div className="flex flex-col gap-1">
                  <Label htmlFor={`sname-${section.id}`}>Section</Label>
                  <Input
                    id={`sname-${section.id}`}
                    className="w-36"
                    value={section.name}
                    onChange={(e) =>
                      updateSection(section.id, (s) => {
                        s.name = e.target.value;
                      })
                    }
                  />
                </div>
                <div className="flex flex-col gap-1">
                  <Label htmlFor={`stype-${section.id}`}>Holds</Label>
                  <NativeSelect
                    id={`stype-${section.id}`}
                    value={section.questionType}
                    onChange={(e) =>
                      updateSection(section.id, (s) => {
                        s.questionType = e.target.value as IPaperSection["questionType"];
                      })
                    }
                  >
                    {[...QUESTION_TYPES, "mixed" as const].map((t) => (
                      <option key={t}>{t}</option>
                    ))}
                  </NativeSelect>
                </div>
                <div className="flex flex-col gap-1">
                  <Label htmlFor={`smarks-${section.id}`}>Marks each</Label>
                  <Input
                    id={`smarks-${section.id}`}
                    type="number"
                    min={1}
                    className="w-20"
                    value={section.marksPerQuestion ?? ""}
                    placeholder="any"
                    onChange={(e) =>
                      updateSection(section.id, (s) => {
                        const v = Number(e.target.value);
                        s.marksPerQuestion =
                          e.target.value === "" || v < 1 ? undefined : Math.min(100, Math.round(v));
                        if (s.marksPerQuestion) for (const it of s.items) it.marks = s.marksPerQuestion;
                      })
                    }
                  />
                </div>
                <div className="flex flex-col gap-1">
                  <Label htmlFor={`sany-${section.id}`}>Attempt any</Label>
                  <Input
                    id={`sany-${section.id}`}
                    type="number"
                    min={1}
                    className="w-20"
                    value={section.attemptAny ?? ""}
                    placeholder="all"
                    onChange={(e) =>
                      updateSection(section.id, (s) => {
                        const v = Number(e.target.value);
                        s.attemptAny =
                          e.target.value === "" || v < 1 ? undefined : Math.min(100, Math.round(v));
                      })
                    }
                  />
                </div>
                <span className="ml-auto text-sm text-muted-foreground" data-testid="section-marks">
                  {section.items.length} questions · {sectionMarks(section)} marks
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove ${section.name}`}
                  onClick={() => {
                    if (
                      section.items.length === 0 ||
                      window.confirm(`Remove ${section.name} and its questions?`)
                    ) {
                      editor.update((p) => void p.sections.splice(si, 1));
                    }
                  }}
                >
                  Remove section
                </Button>
              </div>
              <Input
                aria-label={`Instructions for ${section.name}`}
                placeholder="Section instructions (optional)"
                value={section.instructions ?? ""}
                onChange={(e) =>
                  updateSection(section.id, (s) => {
                    s.instructions = e.target.value || undefined;
                  })
                }
              />
              {section.items.length === 0 && (
                <p className="rounded-md border border-dashed border-border p-3 text-sm text-muted-foreground">
                  No questions yet. Use “Add questions” or “Add to paper” on the Questions page.
                </p>
              )}
              <DndContext
                sensors={sensors}
                collisionDetection={closestCenter}
                onDragEnd={(e) => onDragEnd(section, e)}
              >
                <SortableContext
                  items={section.items.map((i) => i.id)}
                  strategy={verticalListSortingStrategy}
                >
                  <ol className="flex flex-col gap-2">
                    {section.items.map((item, ii) => (
                      <PaperItemRow
                        key={item.id}
                        item={item}
                        number={numbers.get(item.id) ?? 0}
                        section={section}
                        sections={draft.sections}
                        pyq={pyq.data?.matches[item.id]}
                        busy={busy !== null}
                        canPairWithNext={ii < section.items.length - 1 && !section.items[ii + 1]!.alternative}
                        onChange={(edit) =>
                          updateSection(section.id, (s) => {
                            const it = s.items.find((x) => x.id === item.id);
                            if (it) edit(it);
                          })
                        }
                        onRemove={() => updateSection(section.id, (s) => void s.items.splice(ii, 1))}
                        onMove={(to) =>
                          editor.update((p) => {
                            const from = p.sections.find((s) => s.id === section.id)!;
                            const target = p.sections.find((s) => s.id === to);
                            const idx = from.items.findIndex((x) => x.id === item.id);
                            if (!target || idx < 0) return;
                            const [moved] = from.items.splice(idx, 1);
                            if (target.marksPerQuestion) moved!.marks = target.marksPerQuestion;
                            target.items.push(moved!);
                          })
                        }
                        onPairWithNext={() =>
                          updateSection(section.id, (s) => {
                            const next = s.items[ii + 1];
                            if (!next || next.question.type !== item.question.type) {
                              toast.error("An OR pair needs two questions of the same type");
                              return;
                            }
                            s.items[ii]!.alternative = next.question;
                            s.items.splice(ii + 1, 1);
                          })
                        }
                        onSplitOr={() =>
                          updateSection(section.id, (s) => {
                            const it = s.items[ii]!;
                            const alt = it.alternative;
                            if (!alt) return;
                            it.alternative = undefined;
                            s.items.splice(ii + 1, 0, {
                              id: crypto.randomUUID(),
                              marks: it.marks,
                              question: alt,
                            });
                          })
                        }
                        onSwap={() =>
                          void server(
                            "swap",
                            (v) => postSwapItem(id, item.id, v),
                            `Question ${numbers.get(item.id)} swapped`,
                          )
                        }
                        onRegenerate={() =>
                          void server(
                            "regenerate",
                            (v) => postRegenerateItem(id, item.id, v),
                            `Question ${numbers.get(item.id)} regenerated`,
                          )
                        }
                      />
                    ))}
                  </ol>
                </SortableContext>
              </DndContext>
            </section>
          ))}
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setAdding((a) => !a)} data-testid="open-add-questions">
              Add questions
            </Button>
            <Button
              variant="outline"
              onClick={() =>
                editor.update((p) =>
                  p.sections.push({
                    id: crypto.randomUUID(),
                    name: `Section ${String.fromCharCode(65 + (p.sections.length % 26))}`,
                    questionType: "mixed",
                    items: [],
                  }),
                )
              }
            >
              Add section
            </Button>
          </div>
          {adding && (
            <AddQuestions
              sections={draft.sections}
              present={present}
              busy={busy !== null}
              onClose={() => setAdding(false)}
              onAdd={(questionIds, sectionId) =>
                void server("add", (version) =>
                  postPaperItems(id, { questionIds, ...(sectionId ? { sectionId } : {}), version }),
                )
              }
            />
          )}
        </div>
        <aside className="flex flex-col gap-4 lg:sticky lg:top-4 lg:self-start">
          <BlueprintPanel check={check} blueprint={draft.blueprint} onTarget={setTarget} />
          <section
            aria-labelledby="export-title"
            className="flex flex-col gap-2 rounded-lg border border-border bg-card p-4"
            data-testid="exports"
          >
            <h2 id="export-title" className="font-semibold">
              Export
            </h2>
            {!exportReady && (
              <p className="text-xs text-muted-foreground" data-testid="export-blocked">
                {state !== "saved"
                  ? "Saving first…"
                  : `Fix the problems above to export (${check.problems[0]?.message ?? ""}).`}
              </p>
            )}
            <p className="text-xs font-medium">Question paper</p>
            <div className="flex flex-wrap gap-1">
              {EXPORTS.map((e) => (
                <ExportLink
                  key={e.format}
                  href={exportUrl(id, e.format)}
                  ready={exportReady}
                  testId={`export-${e.format}`}
                >
                  {e.label}
                </ExportLink>
              ))}
            </div>
            <p className="text-xs font-medium">Answer key and marking scheme</p>
            <div className="flex flex-wrap gap-1">
              <ExportLink
                href={exportUrl(id, "pdf", "answer-key")}
                ready={exportReady}
                testId="export-key-pdf"
              >
                PDF
              </ExportLink>
              <ExportLink
                href={exportUrl(id, "docx", "answer-key")}
                ready={exportReady}
                testId="export-key-docx"
              >
                Word (DOCX)
              </ExportLink>
              <ExportLink href={exportUrl(id, "md", "answer-key")} ready={exportReady} testId="export-key-md">
                Markdown
              </ExportLink>
              <Link
                href={`/papers/${id}/answer-key`}
                target="_blank"
                className="inline-flex h-8 items-center rounded-md border border-border px-3 text-xs font-medium hover:bg-muted"
                data-testid="print-answer-key"
              >
                Print view
              </Link>
            </div>
            {pyq.data && (
              <p className="text-xs text-muted-foreground" data-testid="pyq-summary">
                {pyq.data.pyqChunks === 0
                  ? "No past papers (PYQ) for this subject to compare with."
                  : `${Object.keys(pyq.data.matches).length} question(s) resemble your past papers.`}
              </p>
            )}
          </section>
        </aside>
      </div>
    </div>
  );
}

function ExportLink({
  href,
  ready,
  testId,
  children,
}: {
  href: string;
  ready: boolean;
  testId: string;
  children: React.ReactNode;
}) {
  if (!ready) {
    return (
      <Button size="sm" variant="outline" disabled data-testid={testId}>
        {children}
      </Button>
    );
  }
  return (
    <a
      href={href}
      download
      className="inline-flex h-8 items-center rounded-md border border-border px-3 text-xs font-medium hover:bg-muted"
      data-testid={testId}
    >
      {children}
    </a>
  );
}

function PaperHeader({ paper, onChange }: { paper: IPaper; onChange: (edit: (p: IPaper) => void) => void }) {
  // Raw text, so blank lines can be typed; the paper keeps the non-empty lines.
  const [instructions, setInstructions] = useState(paper.instructions.join("\n"));
  return (
    <section
      className="grid gap-3 rounded-lg border border-border bg-card p-4 md:grid-cols-2"
      aria-label="Paper details"
    >
      <div className="flex flex-col gap-1 md:col-span-2">
        <Label htmlFor="p-title">Title</Label>
        <Input
          id="p-title"
          value={paper.title}
          data-testid="paper-title"
          onChange={(e) =>
            onChange((p) => {
              p.title = e.target.value;
            })
          }
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="p-school">School</Label>
        <Input
          id="p-school"
          value={paper.schoolName ?? ""}
          onChange={(e) =>
            onChange((p) => {
              p.schoolName = e.target.value || undefined;
            })
          }
        />
      </div>
      <p className="self-end text-sm text-muted-foreground">
        {paper.board} · Class {paper.grade} · {paper.subject}
      </p>
      <div className="flex flex-col gap-1">
        <Label htmlFor="p-duration">Time (minutes)</Label>
        <Input
          id="p-duration"
          type="number"
          min={5}
          max={600}
          value={paper.durationMinutes}
          onChange={(e) =>
            onChange((p) => {
              p.durationMinutes = Math.max(5, Math.min(600, Number(e.target.value) || 5));
            })
          }
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="p-total">Maximum marks</Label>
        <Input
          id="p-total"
          type="number"
          min={1}
          max={1000}
          value={paper.totalMarks}
          data-testid="paper-total"
          onChange={(e) =>
            onChange((p) => {
              p.totalMarks = Math.max(1, Math.min(1000, Number(e.target.value) || 1));
            })
          }
        />
      </div>
      <div className="flex flex-col gap-1 md:col-span-2">
        <Label htmlFor="p-instructions">General instructions (one per line)</Label>
        <Textarea
          id="p-instructions"
          rows={3}
          value={instructions}
          onChange={(e) => {
            setInstructions(e.target.value);
            const lines = e.target.value
              .split("\n")
              .map((l) => l.trim())
              .filter(Boolean);
            onChange((p) => {
              p.instructions = lines;
            });
          }}
        />
      </div>
    </section>
  );
}
