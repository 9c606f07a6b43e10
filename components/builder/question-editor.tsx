"use client";

import { Button } from "@/components/ui/button";
import { Input, NativeSelect, Textarea } from "@/components/ui/input";
import { formIssues, type IQuestionForm, letter } from "@/lib/questions/edit";
import { plural } from "@/lib/text/plural";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";

/**
 * Every part of a question a teacher can change by hand: the stem, the options and which one is
 * right, the marks, the Bloom level, the model answer (or the MCQ's explanation) and the marking
 * points. Controlled: the card keeps a copy until Save, the paper builder writes each change to
 * the paper. Problems (one key among distinct options, points that add up to the marks, empty
 * text) show under the fields; `onSave` is offered only when there are none.
 */
export function QuestionEditor({
  id,
  value,
  onChange,
  maxMarks = 20,
  promptTestId = "edit-prompt",
  onSave,
  onCancel,
}: {
  /** Unique per editor on the page: the labels' and the radio group's ids. */
  id: string;
  value: IQuestionForm;
  onChange: (next: IQuestionForm) => void;
  maxMarks?: number;
  promptTestId?: string;
  onSave?: () => void;
  onCancel: () => void;
}) {
  const issues = formIssues(value, maxMarks);
  const at = (path: string) => issues.filter((i) => i.path === path || i.path.startsWith(`${path}.`));
  const set = (patch: Partial<IQuestionForm>) => onChange({ ...value, ...patch });
  const schemeSum = value.markingScheme.reduce((a, p) => a + (p.marks || 0), 0);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the editor cancels it (each control is focusable itself)
    <div
      className="flex flex-col gap-3 rounded-md border border-border p-3"
      data-testid="question-editor"
      onKeyDown={(e) => {
        if (e.key === "Escape") onCancel();
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && onSave && issues.length === 0) onSave();
      }}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-prompt`} className="text-xs font-medium">
          Question
        </label>
        <Textarea
          id={`${id}-prompt`}
          className="min-h-20 text-sm"
          value={value.promptText}
          onChange={(e) => set({ promptText: e.target.value })}
          data-testid={promptTestId}
          aria-invalid={at("promptText").length > 0}
        />
      </div>
      {value.options && (
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1 text-xs font-medium">Options (choose the right answer)</legend>
          {value.options.map((o, i) => (
            <div key={`${id}-opt-${letter(i)}`} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${id}-key`}
                className="h-4 w-4 shrink-0"
                aria-label={`Option ${letter(i)} is the right answer`}
                checked={value.correctIndex === i}
                onChange={() => set({ correctIndex: i })}
                data-testid="edit-key"
              />
              <span className="w-4 shrink-0 font-medium">{letter(i)}</span>
              <Input
                aria-label={`Option ${letter(i)}`}
                value={o}
                className="min-w-0 flex-1"
                data-testid="edit-option"
                aria-invalid={at(`options.${i}`).length > 0}
                onChange={(e) =>
                  set({ options: value.options!.map((x, j) => (j === i ? e.target.value : x)) })
                }
              />
            </div>
          ))}
        </fieldset>
      )}
      <div className="flex flex-wrap gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-marks`} className="text-xs font-medium">
            Marks
          </label>
          <Input
            id={`${id}-marks`}
            type="number"
            min={1}
            max={maxMarks}
            className="h-8 w-20"
            value={Number.isFinite(value.marks) ? value.marks : ""}
            data-testid="edit-marks"
            onChange={(e) => set({ marks: Math.trunc(Number(e.target.value)) })}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-bloom`} className="text-xs font-medium">
            Bloom level
          </label>
          <NativeSelect
            id={`${id}-bloom`}
            className="h-8"
            value={value.bloomLevel}
            data-testid="edit-bloom"
            onChange={(e) => set({ bloomLevel: e.target.value as EBloomLevel })}
          >
            {BLOOM_LEVELS.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </NativeSelect>
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-answer`} className="text-xs font-medium">
          {value.type === "mcq" ? "Why the answer is right (explanation)" : "Model answer"}
        </label>
        <Textarea
          id={`${id}-answer`}
          className="min-h-16 text-sm"
          value={value.answer}
          data-testid="edit-answer"
          onChange={(e) => set({ answer: e.target.value })}
        />
      </div>
      {value.type !== "mcq" && (
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1 text-xs font-medium">
            Marking points{" "}
            <span className="font-normal text-muted-foreground">
              ({plural(schemeSum, "mark")} of {value.marks})
            </span>
          </legend>
          {value.markingScheme.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: points have no id; their order is the identity
            <div key={i} className="flex items-center gap-2 text-sm" data-testid="edit-point">
              <Input
                aria-label={`Marking point ${i + 1}`}
                value={p.point}
                className="min-w-0 flex-1"
                onChange={(e) =>
                  set({
                    markingScheme: value.markingScheme.map((m, j) =>
                      j === i ? { ...m, point: e.target.value } : m,
                    ),
                  })
                }
              />
              <Input
                aria-label={`Marks for marking point ${i + 1}`}
                type="number"
                min={1}
                max={20}
                className="h-8 w-16 shrink-0"
                value={Number.isFinite(p.marks) ? p.marks : ""}
                onChange={(e) =>
                  set({
                    markingScheme: value.markingScheme.map((m, j) =>
                      j === i ? { ...m, marks: Math.trunc(Number(e.target.value)) } : m,
                    ),
                  })
                }
              />
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove marking point ${i + 1}`}
                onClick={() => set({ markingScheme: value.markingScheme.filter((_, j) => j !== i) })}
              >
                ×
              </Button>
            </div>
          ))}
          <div>
            <Button
              size="sm"
              variant="outline"
              data-testid="add-point"
              onClick={() => set({ markingScheme: [...value.markingScheme, { point: "", marks: 1 }] })}
            >
              Add marking point
            </Button>
          </div>
        </fieldset>
      )}
      {issues.length > 0 && (
        <ul className="list-disc pl-5 text-xs text-destructive" data-testid="edit-issues" aria-live="polite">
          {issues.map((i) => (
            <li key={i.path + i.message}>{i.message}</li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        {onSave && (
          <Button size="sm" onClick={onSave} disabled={issues.length > 0} data-testid="save-edit">
            Save
          </Button>
        )}
        <Button size="sm" variant="outline" onClick={onCancel} data-testid="cancel-edit">
          {onSave ? "Cancel" : "Done"}
        </Button>
      </div>
    </div>
  );
}

/** The warning an edited stem or option leaves until the teacher has checked the key. */
export function CheckAnswerNote({ onConfirm }: { onConfirm: () => void }) {
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-2 rounded-md border border-amber-500/60 bg-amber-50 px-2 py-1.5 text-xs text-amber-950 dark:bg-amber-950/30 dark:text-amber-100"
      data-testid="check-answer"
    >
      <span>You changed the question — check the answer key.</span>
      <Button size="sm" variant="outline" className="h-7" onClick={onConfirm} data-testid="confirm-answer">
        The key is right
      </Button>
    </div>
  );
}
