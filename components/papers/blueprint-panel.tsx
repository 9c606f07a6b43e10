"use client";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { hasTargets } from "@/lib/papers/draft";
import { plural } from "@/lib/text/plural";
import { cn } from "@/lib/utils";
import type { ICheckRow, IPaperBlueprint, IPaperCheck } from "@/types/paper.types";

type TTargetKey = "chapters" | "bloomBands" | "bloom" | "types" | "difficulty";

const GROUPS: { key: TTargetKey; title: string; unit: string }[] = [
  { key: "chapters", title: "Marks by chapter", unit: "marks" },
  { key: "bloomBands", title: "Marks by cognitive level", unit: "marks" },
  { key: "types", title: "Marks by question type", unit: "marks" },
  { key: "difficulty", title: "Difficulty mix", unit: "%" },
];

const STATUS_TEXT = { ok: "on target", under: "under", over: "over" } as const;

/**
 * The live blueprint check: each row shows what the paper gives against its target, a bar with
 * the target marked, and an over/under indicator; targets are edited in place.
 */
export function BlueprintPanel({
  check,
  blueprint,
  onTarget,
  onSetTotal,
}: {
  check: IPaperCheck;
  blueprint: IPaperBlueprint | undefined;
  onTarget: (group: TTargetKey, key: string, value: number | undefined) => void;
  /** Sets the paper's maximum marks (the one-click fix when the questions add up to another total). */
  onSetTotal: (marks: number) => void;
}) {
  const totalOk = check.countedMarks === check.totalMarks;
  // "Blueprint met" means something only when a target is set; the status then also needs the
  // paper itself to be in order.
  const targeted = hasTargets(blueprint);
  const status = !targeted ? "none" : check.blueprintMet ? "met" : "unmet";
  return (
    <section
      aria-labelledby="blueprint-title"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
      data-testid="blueprint-panel"
      data-met={status === "met" ? "true" : "false"}
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="blueprint-title" className="font-semibold">
          Blueprint check
        </h2>
        <span
          className={cn(
            "rounded-full px-2 py-0.5 text-xs font-medium",
            status === "met"
              ? "bg-success/15 text-success"
              : status === "none"
                ? "bg-muted text-muted-foreground"
                : "bg-destructive/10 text-destructive",
          )}
          data-testid="blueprint-status"
          data-status={status}
        >
          {status === "met" ? "✓ Blueprint met" : status === "none" ? "No blueprint set" : "Not yet"}
        </span>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <p className={cn("text-sm", totalOk ? "text-success" : "text-destructive")} data-testid="marks-total">
          {check.countedMarks} of {plural(check.totalMarks, "mark")}{" "}
          {totalOk ? "✓" : check.countedMarks < check.totalMarks ? "(under)" : "(over)"}
        </p>
        {!totalOk && check.countedMarks > 0 && (
          <Button
            size="sm"
            variant="outline"
            className="h-7"
            onClick={() => onSetTotal(check.countedMarks)}
            data-testid="set-total"
          >
            Set maximum to {check.countedMarks}
          </Button>
        )}
      </div>
      {!targeted && (
        <p className="text-xs text-muted-foreground" data-testid="no-blueprint">
          Type a target in any row below to check the paper against it.
        </p>
      )}
      {check.problems.length > 0 && (
        <ul className="list-disc pl-5 text-xs text-destructive" data-testid="paper-problems">
          {check.problems.slice(0, 6).map((p) => (
            <li key={p.path + p.message}>{p.message}</li>
          ))}
          {check.problems.length > 6 && <li>…and {check.problems.length - 6} more</li>}
        </ul>
      )}
      {GROUPS.map((g) => {
        const rows = g.key === "bloomBands" && blueprint?.bloom ? check.bloom : check[g.key];
        const group = g.key === "bloomBands" && blueprint?.bloom ? "bloom" : g.key;
        if (rows.length === 0) return null;
        return (
          <Group
            key={g.key}
            title={g.title}
            unit={g.unit}
            rows={rows}
            onTarget={(key, value) => onTarget(group, key, value)}
          />
        );
      })}
    </section>
  );
}

function Group({
  title,
  unit,
  rows,
  onTarget,
}: {
  title: string;
  unit: string;
  rows: ICheckRow[];
  onTarget: (key: string, value: number | undefined) => void;
}) {
  const max = Math.max(1, ...rows.map((r) => Math.max(r.actual, r.target ?? 0)));
  return (
    <figure className="flex flex-col gap-1 text-xs">
      <figcaption className="font-medium text-muted-foreground">
        {title} <span className="font-normal">(actual / target, {unit})</span>
      </figcaption>
      {rows.map((r) => (
        <div
          key={r.key}
          className="grid grid-cols-[minmax(0,8rem)_1fr_3.5rem_4rem] items-center gap-2"
          data-testid="check-row"
          data-status={r.status}
        >
          {/* Band names wrap at their "+" rather than being cut ("Remember+Und…"). */}
          <span className="break-words leading-tight" title={r.key}>
            {r.key.replaceAll("+", " + ")}
          </span>
          <div className="relative h-3 rounded bg-muted" aria-hidden>
            <div
              className={cn(
                "absolute h-3 rounded",
                r.status === "ok"
                  ? "bg-success/70"
                  : r.status === "over"
                    ? "bg-destructive/70"
                    : "bg-primary/60",
              )}
              style={{ width: `${(100 * r.actual) / max}%` }}
            />
            {r.target !== undefined && (
              <div
                className="absolute h-3 border-r-2 border-foreground"
                style={{ width: `${(100 * r.target) / max}%` }}
              />
            )}
          </div>
          <Input
            aria-label={`Target for ${r.key}`}
            className="h-7 px-1 text-xs"
            type="number"
            min={0}
            value={r.target ?? ""}
            placeholder="–"
            onChange={(e) =>
              onTarget(r.key, e.target.value === "" ? undefined : Math.max(0, Number(e.target.value)))
            }
          />
          <span
            className={cn(
              "text-right",
              r.status === "ok" ? "text-success" : "text-destructive",
              r.target === undefined && "text-muted-foreground",
            )}
          >
            {formatActual(r.actual, unit)}
            {r.target !== undefined && (
              <>
                {" "}
                {r.status === "ok" ? "✓" : r.status === "under" ? "↓" : "↑"}
                <span className="sr-only"> {STATUS_TEXT[r.status]}</span>
              </>
            )}
          </span>
        </div>
      ))}
    </figure>
  );
}

/** Whole percent for the difficulty mix (15.38 → 15); marks keep a half mark when there is one. */
export function formatActual(value: number, unit: string): string {
  if (unit === "%") return String(Math.round(value));
  return String(Math.round(value * 10) / 10);
}
