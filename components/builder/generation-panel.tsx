"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { plural } from "@/lib/text/plural";
import { AddToPaper } from "./add-to-paper";
import { BlueprintForm } from "./blueprint-form";
import { GenerationStatus } from "./generation-status";
import { MixChart } from "./mix-chart";
import { QuestionCard } from "./question-card";
import { setTime } from "./recent-sets";
import { SupportTable } from "./support-table";
import { type IGenerationPanelProps, useGenerationPanel } from "./use-generation-panel";

/**
 * Generation from the selected passages: the blueprint form, the streamed question cards to review
 * (approve, reject, edit, regenerate), the Bloom/type mix and "Add to paper". State lives in
 * `useGenerationPanel`.
 */
export function GenerationPanel({ onBack, ...props }: IGenerationPanelProps & { onBack: () => void }) {
  const p = useGenerationPanel(props);
  const { filters, context } = props;
  const { running } = p;
  // Focus follows the teacher: to the chosen context when the panel opens ("Use selected"), to
  // the generated set when Generate is pressed.
  const contextRef = useRef<HTMLElement>(null);
  const questionsRef = useRef<HTMLElement>(null);
  useEffect(() => contextRef.current?.focus(), []);
  const generate = () => {
    p.generate();
    questionsRef.current?.focus();
  };
  return (
    <div className="flex flex-col gap-4">
      <section
        ref={contextRef}
        tabIndex={-1}
        aria-label="Context for the questions"
        className="flex items-center gap-3 focus:outline-none"
        data-testid="context-bar"
      >
        <Button variant="outline" size="sm" onClick={onBack}>
          ← Back to results
        </Button>
        <span className="text-sm text-muted-foreground">
          {plural(context.length, "passage")} as context · {filters.board} / {filters.grade} /{" "}
          {filters.subject}
          {props.restored && !p.gen.set && !running ? ` · set from ${setTime(props.restored.createdAt)}` : ""}
        </span>
      </section>
      <BlueprintForm form={p.blueprint} running={running} onGenerate={generate} onStop={p.gen.stop} />
      <SupportTable
        context={context.map((c) => ({ documentId: c.documentId, chunkIndex: c.chunkIndex }))}
        useSection={p.blueprint.useSection}
      />
      <GenerationStatus panel={p} />
      {p.finals.length > 0 && !running && (
        <MixChart byLevel={p.byLevel} targets={p.blueprint.targets()} byType={p.byType} />
      )}
      {p.savedSetId && !running && (
        <AddToPaper
          filters={filters}
          setTitle={`${filters.subject} test`}
          questionIds={p.approvedIds}
          marks={p.approvedMarks}
        />
      )}
      <section
        ref={questionsRef}
        tabIndex={-1}
        aria-label="Generated questions"
        className="grid gap-3 focus:outline-none lg:grid-cols-2"
        data-testid="questions"
      >
        {p.parts.map((q, i) => (
          <QuestionCard
            key={q.slot.id}
            part={q}
            index={i}
            stopped={!running}
            regenerating={p.regenerating === q.slot.id}
            rejected={p.rejected.has(q.slot.id)}
            onReject={() => p.toggleReject(q.slot.id)}
            onEdit={(patch) => p.editQuestion(q, patch)}
            onRegenerate={running ? undefined : () => void p.regenerate(q.slot)}
            approved={p.approved.has(q.slot.id)}
            onApprove={() => p.toggleApprove(q.slot.id)}
          />
        ))}
      </section>
    </div>
  );
}
