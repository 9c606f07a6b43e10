"use client";

import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { GripVertical } from "lucide-react";
import { useId, useState } from "react";
import { CheckAnswerNote, QuestionEditor } from "@/components/builder/question-editor";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, NativeSelect } from "@/components/ui/input";
import { applyFormToItem, formOfPaperItem, type IQuestionForm } from "@/lib/questions/edit";
import { cn } from "@/lib/utils";
import type { IPaperItem, IPaperQuestion, IPaperSection, IPyqMatch } from "@/types/paper.types";

const LETTERS = "abcdef";

/** One numbered question of the paper: drag handle, text, options, marks and its actions. */
export function PaperItemRow({
  item,
  number,
  section,
  sections,
  pyq,
  busy,
  canPairWithNext,
  onChange,
  onRemove,
  onMove,
  onSwap,
  onRegenerate,
  onPairWithNext,
  onSplitOr,
}: {
  item: IPaperItem;
  number: number;
  section: IPaperSection;
  sections: IPaperSection[];
  pyq: IPyqMatch | undefined;
  busy: boolean;
  canPairWithNext: boolean;
  onChange: (edit: (item: IPaperItem) => void) => void;
  onRemove: () => void;
  onMove: (sectionId: string) => void;
  onSwap: () => void;
  onRegenerate: () => void;
  onPairWithNext: () => void;
  onSplitOr: () => void;
}) {
  const sortable = useSortable({ id: item.id });
  // The form as it was when the editor opened: a changed stem or option asks to check the key.
  const [opened, setOpened] = useState<IQuestionForm | null>(null);
  const editing = opened !== null;
  const setEditing = (on: boolean | ((e: boolean) => boolean)) => {
    const next = typeof on === "function" ? on(editing) : on;
    setOpened(next ? formOfPaperItem(item) : null);
  };
  const editorId = useId();
  const style = { transform: CSS.Transform.toString(sortable.transform), transition: sortable.transition };
  return (
    <li
      ref={sortable.setNodeRef}
      style={style}
      className={cn(
        "flex gap-2 rounded-md border border-border bg-background p-3",
        sortable.isDragging && "z-10 shadow-lg",
      )}
      data-testid="paper-item"
      data-item-id={item.id}
    >
      <button
        type="button"
        className="mt-0.5 h-6 cursor-grab rounded text-muted-foreground hover:bg-muted focus-visible:outline-2"
        aria-label={`Drag to reorder question ${number}`}
        {...sortable.attributes}
        {...sortable.listeners}
      >
        <GripVertical className="h-4 w-4" aria-hidden />
      </button>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        {/* On a phone the marks go under the question, not beside it (the text keeps the width). */}
        <div className="grid grid-cols-[auto_minmax(0,1fr)] items-start gap-2 sm:grid-cols-[auto_minmax(0,1fr)_auto]">
          <span className="font-medium tabular-nums">{number}.</span>
          <div className="min-w-0 flex-1">
            {opened ? (
              <QuestionEditor
                id={editorId}
                value={formOfPaperItem(item)}
                maxMarks={100}
                promptTestId="item-text-input"
                onChange={(form) => onChange((it) => applyFormToItem(it, opened, form))}
                onCancel={() => setEditing(false)}
              />
            ) : (
              <QuestionView question={item.question} />
            )}
            {item.question.checkAnswer && !editing && (
              <div className="mt-2">
                <CheckAnswerNote
                  onConfirm={() =>
                    onChange((it) => {
                      it.question.checkAnswer = false;
                    })
                  }
                />
              </div>
            )}
            {item.alternative && (
              <div className="mt-2 border-t border-dashed border-border pt-2" data-testid="or-alternative">
                <p className="mb-1 text-center text-xs font-semibold">OR</p>
                <QuestionView question={item.alternative} />
              </div>
            )}
          </div>
          <div
            className={cn(
              "col-start-2 flex shrink-0 items-center gap-1 text-xs sm:col-start-3",
              editing && "hidden",
            )}
          >
            <Input
              type="number"
              min={1}
              max={100}
              aria-label={`Marks for question ${number}`}
              className="h-7 w-14 px-1 text-right"
              value={item.marks}
              data-testid="item-marks"
              onChange={(e) =>
                onChange((it) => {
                  it.marks = Math.max(1, Math.min(100, Number(e.target.value) || 1));
                })
              }
            />
            marks
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-1">
          <Badge variant="outline">{item.question.type.toUpperCase()}</Badge>
          <Badge variant="outline">{item.question.bloomLevel}</Badge>
          <Badge variant="outline">{item.question.difficulty}</Badge>
          {item.question.chapter && <Badge variant="outline">Ch {item.question.chapter}</Badge>}
          {item.question.edited && (
            <Badge variant="outline" data-testid="item-edited">
              edited
            </Badge>
          )}
          {pyq && !item.keepDespitePyq && (
            <Badge variant="destructive" data-testid="pyq-flag" title={pyq.text}>
              Similar to {pyq.title}
              {pyq.pageStart ? `, p. ${pyq.pageStart}` : ""} ({Math.round(pyq.score * 100)} %)
            </Badge>
          )}
          {pyq && item.keepDespitePyq && <Badge variant="outline">kept despite past-paper match</Badge>}
        </div>
        {pyq && !item.keepDespitePyq && (
          <p className="text-xs text-muted-foreground">
            Past paper: “{pyq.text}”{" "}
            <Button
              size="sm"
              variant="link"
              className="h-auto p-0"
              onClick={() =>
                onChange((it) => {
                  it.keepDespitePyq = true;
                })
              }
            >
              Keep it
            </Button>{" "}
            or{" "}
            <Button size="sm" variant="link" className="h-auto p-0" onClick={onSwap} disabled={busy}>
              swap it
            </Button>
          </p>
        )}
        <div className="flex flex-wrap gap-1">
          <Button size="sm" variant="outline" onClick={() => setEditing((e) => !e)} data-testid="edit-item">
            {editing ? "Done" : "Edit"}
          </Button>
          <Button size="sm" variant="outline" onClick={onSwap} disabled={busy} data-testid="swap-item">
            Swap for similar
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={onRegenerate}
            disabled={busy}
            data-testid="regenerate-item"
          >
            Regenerate
          </Button>
          {item.alternative ? (
            <Button size="sm" variant="outline" onClick={onSplitOr}>
              Split OR
            </Button>
          ) : (
            canPairWithNext && (
              <Button
                size="sm"
                variant="outline"
                onClick={onPairWithNext}
                title="Internal choice with the next question"
              >
                OR with next
              </Button>
            )
          )}
          <NativeSelect
            aria-label={`Move question ${number} to section`}
            className="h-8 w-auto text-xs"
            value={section.id}
            onChange={(e) => onMove(e.target.value)}
          >
            {sections.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id === section.id ? `In ${s.name}` : `Move to ${s.name}`}
              </option>
            ))}
          </NativeSelect>
          <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove question ${number}`}>
            Remove
          </Button>
        </div>
      </div>
    </li>
  );
}

function QuestionView({ question }: { question: IPaperQuestion }) {
  return (
    <div className="flex flex-col gap-1">
      <p className="whitespace-pre-wrap text-sm" data-testid="item-text">
        {question.promptText}
      </p>
      {question.options && (
        <ol className="grid gap-x-4 text-sm sm:grid-cols-2">
          {question.options.map((o, i) => (
            <li key={LETTERS[i]} className={cn(i === question.correctIndex && "font-medium")}>
              ({LETTERS[i]}) {o}
              {i === question.correctIndex && <span className="sr-only"> (correct)</span>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
