"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/misc";
import type { IQuestionPartData, TQuestion } from "@/types/generation.types";

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
}: {
  part: IQuestionPartData;
  index: number;
  approved: boolean;
  onApprove: () => void;
  onRegenerate?: () => void;
  regenerating?: boolean;
  rejected?: boolean;
  onReject?: () => void;
  onEdit?: (promptText: string) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const [reveal, setReveal] = useState(false);
  const [why, setWhy] = useState(false);
  const q = part.question as TQuestion | undefined;
  const final = part.status === "final" && q;
  return (
    <Card
      data-testid="question-card"
      data-status={part.status}
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
            {part.slot.marks} mark{part.slot.marks === 1 ? "" : "s"} · {part.slot.difficulty}
          </span>
          {final && q.validation.flags.length > 0 && (
            <Badge variant="outline" title={q.validation.flags.join("; ")}>
              reviewer notes
            </Badge>
          )}
          {final && q.source === "offline" && (
            <span className="text-muted-foreground">offline generator</span>
          )}
          {rejected && <Badge variant="destructive">rejected</Badge>}
          {approved && (
            <Badge variant="success" data-testid="approved-badge">
              approved
            </Badge>
          )}
        </div>
        {!final && part.status !== "failed" && (
          <Skeleton className="h-12 w-full" data-testid="question-skeleton" />
        )}
        {part.status === "failed" && !q && (
          <div
            className="flex flex-wrap items-center gap-2 text-sm text-destructive"
            data-testid="question-failed"
          >
            {part.reason ?? "Not enough evidence for this question; it was skipped rather than invented."}
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
              <div className="flex flex-col gap-2">
                <textarea
                  aria-label="Question text"
                  className="min-h-20 rounded-md border border-border p-2 text-sm"
                  value={editing}
                  onChange={(e) => setEditing(e.target.value)}
                  data-testid="edit-prompt"
                />
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    onClick={() => {
                      if (editing.trim().length >= 8) {
                        onEdit?.(editing.trim());
                        setEditing(null);
                      }
                    }}
                    data-testid="save-edit"
                  >
                    Save
                  </Button>
                  <Button size="sm" variant="outline" onClick={() => setEditing(null)}>
                    Cancel
                  </Button>
                </div>
              </div>
            ) : null}
            <p className={editing !== null ? "hidden" : "text-sm font-medium"} data-testid="question-prompt">
              {q.promptText}
            </p>
            {q.type === "mcq" && (
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
                  <p key={`${r.documentId}:${r.chunkIndex}`}>
                    <span className="font-medium">
                      {r.title}, chunk {r.chunkIndex}
                      {r.pageStart !== undefined ? `, p. ${r.pageStart}` : ""}
                    </span>
                    : “{r.quote.slice(0, 300)}”{" "}
                    <a
                      className="text-primary underline"
                      href={`/api/sources/${r.documentId}${r.pageStart ? `#page=${r.pageStart}` : ""}`}
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
            <div className="flex flex-wrap gap-2">
              <Button
                size="sm"
                variant="outline"
                onClick={() => setReveal((v) => !v)}
                data-testid="reveal-answer"
              >
                {reveal ? "Hide answer" : "Reveal answer"}
              </Button>
              <Button size="sm" variant="outline" onClick={() => setWhy((v) => !v)} data-testid="why">
                Why?
              </Button>
              <Button
                size="sm"
                variant={approved ? "secondary" : "default"}
                onClick={onApprove}
                data-testid="approve"
              >
                {approved ? "Approved" : "Approve"}
              </Button>
              {onEdit && (
                <Button size="sm" variant="ghost" onClick={() => setEditing(q.promptText)} data-testid="edit">
                  Edit
                </Button>
              )}
              {onReject && (
                <Button size="sm" variant="ghost" onClick={onReject} data-testid="reject">
                  {rejected ? "Undo reject" : "Reject"}
                </Button>
              )}
              {onRegenerate && (
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
          </>
        )}
      </CardContent>
    </Card>
  );
}
