"use client";

import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/misc";
import { flagSentence, teacherWords } from "@/lib/generation/flag-words";
import { formOfQuestion, type IQuestionForm, patchOf } from "@/lib/questions/edit";
import type { TPatchQuestion } from "@/schema/generation.schema";
import {
  type IQuestionDraft,
  type ISlot,
  passageKey,
  type TQuestionPartData,
} from "@/types/generation.types";
import { CheckAnswerNote, QuestionEditor } from "./question-editor";
import { sourceHref } from "./source-link";

const WRITING: Record<IQuestionDraft["writing"], string> = {
  stem: "the question",
  options: "the options",
  answer: "the answer",
  explanation: "the explanation",
  rationales: "the rationales",
  keywords: "the keywords",
  scheme: "the marking scheme",
  citations: "the citations",
};

/**
 * A question while it is not final: the model's draft as it grows (the stem, then each complete
 * option), or why the slot is being written again, over placeholders of the final card's size, so
 * nothing jumps when the question lands.
 */
function PendingBody({
  slot,
  draft,
  note,
  stopped,
}: {
  slot: ISlot;
  draft?: IQuestionDraft;
  note?: string;
  stopped: boolean;
}) {
  const options = draft?.options ?? [];
  return (
    <>
      {draft?.promptText ? (
        <p className="min-h-10 text-sm font-medium text-muted-foreground" data-testid="draft-prompt">
          {draft.promptText}
          {!stopped && (
            <span aria-hidden className="ml-0.5 animate-pulse">
              ▍
            </span>
          )}
        </p>
      ) : note ? (
        <div className="min-h-10 text-sm text-muted-foreground" data-testid="slot-note">
          <TeacherNote text={note} />
        </div>
      ) : (
        <Skeleton className="h-10 w-full" data-testid="question-skeleton" />
      )}
      {slot.type === "mcq" && (
        <ol className="grid gap-1 text-sm text-muted-foreground sm:grid-cols-2" data-testid="draft-options">
          {[0, 1, 2, 3].map((i) =>
            options[i] !== undefined ? (
              <li key={i} className="px-2 py-1" data-testid="draft-option">
                {String.fromCharCode(65 + i)}. {options[i]}
              </li>
            ) : (
              <li key={i} className="px-2 py-1">
                <Skeleton className="h-5 w-3/4" />
              </li>
            ),
          )}
        </ol>
      )}
    </>
  );
}

/**
 * A generation note or reason in teacher words; when the quality gate's flag names were put in
 * sentences, the original wording is under "Details".
 */
function TeacherNote({ text }: { text: string }) {
  const words = teacherWords(text);
  return (
    <>
      <span>{words}</span>
      {words !== text && (
        <details className="text-xs text-muted-foreground" data-testid="note-details">
          <summary className="cursor-pointer">Details</summary>
          <span className="font-mono">{text}</span>
        </details>
      )}
    </>
  );
}

export function QuestionCard({
  part,
  index,
  approved,
  onApprove,
  onRegenerate,
  regenerating = false,
  rejected = false,
  onReject,
  onEdit,
  stopped = false,
}: {
  part: TQuestionPartData;
  index: number;
  approved: boolean;
  onApprove: () => void;
  onRegenerate?: () => void;
  regenerating?: boolean;
  rejected?: boolean;
  onReject?: () => void;
  /** Saves an edit by hand (only what changed), or the teacher's confirmation of the key. */
  onEdit?: (patch: TPatchQuestion) => void;
  /** The generation was stopped before this question was final. */
  stopped?: boolean;
}) {
  const [editing, setEditing] = useState<{ opened: IQuestionForm; form: IQuestionForm } | null>(null);
  const editorId = useId();
  const [reveal, setReveal] = useState(false);
  const [why, setWhy] = useState(false);
  const q = part.status === "final" ? part.question : undefined;
  const final = part.status === "final" && q;
  const pending = part.status === "generating" || part.status === "draft";
  return (
    <Card
      data-testid="question-card"
      data-status={stopped && pending ? "stopped" : part.status}
      aria-busy={pending && !stopped}
      className={rejected ? "min-h-28 opacity-60" : "min-h-28"}
    >
      <CardContent className="flex flex-col gap-2 pt-4">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <span className="font-semibold">Q{index + 1}</span>
          <Badge variant="outline">{part.slot.type.toUpperCase()}</Badge>
          <Badge>{final ? q.bloomLevel : part.slot.bloomLevel}</Badge>
          {final && q.validation.substitutedFor && (
            <span className="text-muted-foreground" data-testid="substituted">
              asked {q.validation.substitutedFor}; the passages support {q.bloomLevel} here
            </span>
          )}
          <span className="text-muted-foreground">
            {final ? q.marks : part.slot.marks} mark{(final ? q.marks : part.slot.marks) === 1 ? "" : "s"} ·{" "}
            {part.slot.difficulty}
          </span>
          {final && q.edited && (
            <Badge variant="outline" data-testid="edited-badge">
              edited
            </Badge>
          )}
          {final && q.validation.flags.length > 0 && (
            <Badge variant="outline" title={q.validation.flags.map(flagSentence).join(" ")}>
              reviewer notes
            </Badge>
          )}
          {final && q.source === "offline" && (
            <span className="text-muted-foreground">offline generator</span>
          )}
        </div>
        {final && q.validation.offlineReason && (
          <div className="text-muted-foreground text-xs" data-testid="offline-reason">
            <TeacherNote text={q.validation.offlineReason} />
          </div>
        )}
        {final && q.validation.flags.length > 0 && (
          <ul className="text-muted-foreground list-disc pl-4 text-xs" data-testid="gate-warnings">
            {q.validation.flags.map((f) => (
              <li key={f}>{flagSentence(f)}</li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-center gap-2 text-xs">
          {rejected && <Badge variant="destructive">rejected</Badge>}
          {approved && (
            <Badge variant="success" data-testid="approved-badge">
              approved
            </Badge>
          )}
          {pending && (
            <span className="flex items-center gap-1 text-muted-foreground" data-testid="slot-status">
              {stopped ? (
                <Badge variant="destructive">stopped</Badge>
              ) : part.status === "draft" ? (
                <>
                  <Badge
                    variant="outline"
                    data-testid="draft-badge"
                    title="A draft: the quality gate reads it when it is complete, and only then can it be used."
                  >
                    draft{part.draft.attempt > 1 ? " · rewrite" : ""}
                  </Badge>
                  {WRITING[part.draft.writing]}…
                </>
              ) : (
                "being written…"
              )}
            </span>
          )}
        </div>
        {pending && (
          <PendingBody
            slot={part.slot}
            draft={part.status === "draft" ? part.draft : undefined}
            note={part.status === "generating" ? part.note : undefined}
            stopped={stopped}
          />
        )}
        {part.status === "failed" && (
          <div
            className="flex flex-wrap items-center gap-2 text-sm text-destructive"
            data-testid="question-failed"
          >
            <TeacherNote
              text={
                part.reason ?? "Not enough evidence for this question; it was skipped rather than invented."
              }
            />
            {onRegenerate && (
              <Button size="sm" variant="outline" onClick={onRegenerate} disabled={regenerating}>
                {regenerating ? "Trying…" : "Try again"}
              </Button>
            )}
          </div>
        )}
        {final && (
          <>
            {editing !== null ? (
              <QuestionEditor
                id={editorId}
                value={editing.form}
                onChange={(form) => setEditing({ ...editing, form })}
                onSave={() => {
                  const patch = patchOf(editing.opened, editing.form);
                  if (patch) onEdit?.(patch);
                  setEditing(null);
                }}
                onCancel={() => setEditing(null)}
              />
            ) : null}
            {q.checkAnswer && editing === null && onEdit && (
              <CheckAnswerNote onConfirm={() => onEdit({ checkAnswer: false })} />
            )}
            <p className={editing !== null ? "hidden" : "text-sm font-medium"} data-testid="question-prompt">
              {q.promptText}
            </p>
            {q.type === "mcq" && editing === null && (
              <ol className="grid gap-1 text-sm sm:grid-cols-2">
                {q.options.map((o, i) => (
                  <li
                    key={o}
                    className={
                      reveal && i === q.correctIndex
                        ? "rounded bg-success/15 px-2 py-1 font-medium"
                        : "px-2 py-1"
                    }
                  >
                    {String.fromCharCode(65 + i)}. {o}
                  </li>
                ))}
              </ol>
            )}
            {reveal && (
              <div className="rounded-md bg-muted p-3 text-sm" data-testid="answer">
                {q.type === "mcq" ? (
                  <p>{q.explanation}</p>
                ) : (
                  <>
                    <p>{q.suggestedAnswer}</p>
                    <p className="mt-1 text-xs text-muted-foreground">
                      Keywords: {q.evaluatorKeywords.join(", ")}
                    </p>
                    {q.type === "long" && (
                      <ul className="mt-1 list-disc pl-5 text-xs">
                        {q.markingScheme.map((m) => (
                          <li key={m.point}>
                            {m.point} ({m.marks})
                          </li>
                        ))}
                      </ul>
                    )}
                  </>
                )}
              </div>
            )}
            {why && (
              <div
                className="flex flex-col gap-1 rounded-md border border-border p-3 text-xs"
                data-testid="citations"
              >
                {q.type === "mcq" && (
                  <>
                    <p>{q.explanation}</p>
                    <ul className="list-disc pl-4 text-muted-foreground">
                      {q.options
                        .filter((_, i) => i !== q.correctIndex)
                        .map((o, i) => (
                          <li key={o}>
                            {o}: {q.distractorRationales[i]}
                          </li>
                        ))}
                    </ul>
                  </>
                )}
                {q.contextRefs.map((r) => (
                  <p key={passageKey(r)}>
                    <span className="font-medium">
                      {r.title}, chunk {r.chunkIndex}
                      {r.pageStart !== undefined ? `, p. ${r.pageStart}` : ""}
                    </span>
                    : “{r.quote.slice(0, 300)}”{" "}
                    <a
                      className="text-primary underline"
                      href={sourceHref(r)}
                      target="_blank"
                      rel="noreferrer"
                    >
                      source
                    </a>
                  </p>
                ))}
                <p className="mt-1 text-muted-foreground">
                  Checks: citations {q.validation.citationsOk ? "✓" : "✗"} · supported{" "}
                  {q.validation.supported ? "✓" : "✗"} · Bloom {q.validation.bloomAgreed ? "✓" : "✗"}
                </p>
              </div>
            )}
          </>
        )}
        {(final || pending) && (
          // The same controls in the same place from the first placeholder on, disabled until the
          // quality gate has accepted the question.
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="outline"
              disabled={!final}
              onClick={() => setReveal((v) => !v)}
              data-testid="reveal-answer"
            >
              {reveal ? "Hide answer" : "Reveal answer"}
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={!final}
              onClick={() => setWhy((v) => !v)}
              data-testid="why"
            >
              Why?
            </Button>
            <Button
              size="sm"
              variant={approved ? "secondary" : "default"}
              disabled={!final}
              // A double click is one approval: its second click (detail 2) would toggle it back.
              onClick={(e) => e.detail < 2 && onApprove()}
              aria-pressed={approved}
              data-testid="approve"
            >
              {approved ? "Approved" : "Approve"}
            </Button>
            {onEdit && (
              <Button
                size="sm"
                variant="ghost"
                disabled={!final}
                onClick={() => {
                  if (!q) return;
                  const form = formOfQuestion(q);
                  setEditing({ opened: form, form });
                }}
                aria-expanded={editing !== null}
                data-testid="edit"
              >
                Edit
              </Button>
            )}
            {onReject && (
              <Button size="sm" variant="ghost" disabled={!final} onClick={onReject} data-testid="reject">
                {rejected ? "Undo reject" : "Reject"}
              </Button>
            )}
            {final && onRegenerate && (
              <Button
                size="sm"
                variant="ghost"
                onClick={onRegenerate}
                disabled={regenerating}
                data-testid="regenerate"
              >
                {regenerating ? "Regenerating…" : "Regenerate"}
              </Button>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
