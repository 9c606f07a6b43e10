"use client";

import { useState } from "react";
import { Input, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { rescaleBlueprint } from "@/lib/papers/rescale";
import type { IPaper } from "@/types/paper.types";

/** The paper's title, school, time, maximum marks and general instructions. */
export function PaperDetails({
  paper,
  onChange,
}: {
  paper: IPaper;
  onChange: (edit: (p: IPaper) => void) => void;
}) {
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
              const total = Math.max(1, Math.min(1000, Number(e.target.value) || 1));
              // Targets in marks follow the total (a 20-mark blueprint on a 13-mark paper is wrong).
              if (p.blueprint) p.blueprint = rescaleBlueprint(p.blueprint, p.totalMarks, total);
              p.totalMarks = total;
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
