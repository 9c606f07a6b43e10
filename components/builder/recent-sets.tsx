"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Alert, Skeleton } from "@/components/ui/misc";
import { useRecentSets } from "@/hooks/use-question-sets";
import { plural } from "@/lib/text/plural";
import type { TQuestionSetSummary } from "@/schema/generation.schema";

/** "14:32" today, "25 Nov, 14:32" on another day (the teacher's own clock). */
export function setTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const time = d.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
  return d.toDateString() === now.toDateString()
    ? time
    : `${d.toLocaleDateString([], { day: "numeric", month: "short" })}, ${time}`;
}

function scopeLabel(s: TQuestionSetSummary): string {
  const { board, grade, subject, chapterNumber, documentIds } = s.filters;
  return [
    `${board} / ${grade} / ${subject}`,
    chapterNumber !== undefined ? `chapter ${chapterNumber}` : null,
    documentIds?.length ? plural(documentIds.length, "chosen resource") : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** A set just made (the last half hour) that is not on screen: offered after a reload. */
const RECENT_MS = 30 * 60 * 1000;

/**
 * The teacher's recent generated sets: topic, scope, time, size and review counts, each to reopen
 * (its context and cards with their review state). `offerLatest` shows "Your set from 14:32 was
 * saved — open it" above the list when the newest set is under half an hour old.
 */
export function RecentSets({
  onOpen,
  offerLatest,
  openingId,
}: {
  onOpen: (setId: string) => void;
  offerLatest: boolean;
  openingId: string | null;
}) {
  const sets = useRecentSets();
  const [dismissed, setDismissed] = useState(false);
  if (sets.isLoading) return <Skeleton className="h-24 w-full" />;
  if (sets.isError) return <Alert variant="destructive">{sets.error.message}</Alert>;
  const list = sets.data ?? [];
  if (list.length === 0) return null;
  const latest = list[0]!;
  const offer = offerLatest && !dismissed && Date.now() - new Date(latest.createdAt).getTime() < RECENT_MS;
  return (
    <>
      {offer && (
        <Alert data-testid="latest-set-offer">
          <div className="flex flex-wrap items-center gap-2">
            <span>Your set from {setTime(latest.createdAt)} was saved.</span>
            <Button size="sm" onClick={() => onOpen(latest.id)} disabled={openingId !== null}>
              Open it
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setDismissed(true)}>
              Not now
            </Button>
          </div>
        </Alert>
      )}
      <Card data-testid="recent-sets">
        <CardHeader>
          <CardTitle>Recent sets</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="flex flex-col divide-y divide-border">
            {list.map((s) => (
              <li
                key={s.id}
                className="flex flex-wrap items-center justify-between gap-2 py-2"
                data-testid="recent-set"
              >
                <div className="flex min-w-0 flex-col gap-0.5 text-sm">
                  <span className="break-words font-medium">{s.topic ?? s.title}</span>
                  <span className="break-words text-muted-foreground">
                    {scopeLabel(s)} · {setTime(s.createdAt)}
                  </span>
                  <span className="text-muted-foreground" data-testid="recent-set-counts">
                    {plural(s.questionCount, "question")} · {s.approved} approved · {s.rejected} rejected
                  </span>
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => onOpen(s.id)}
                  disabled={openingId !== null}
                  aria-label={`Open the set “${s.topic ?? s.title}” from ${setTime(s.createdAt)}`}
                >
                  {openingId === s.id ? "Opening…" : "Open"}
                </Button>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </>
  );
}
