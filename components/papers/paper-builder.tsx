"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Alert, Skeleton } from "@/components/ui/misc";
import { AddQuestions } from "./add-questions";
import { BlueprintPanel } from "./blueprint-panel";
import { ExportPanel } from "./export-panel";
import { PaperDetails } from "./paper-details";
import { PaperSection } from "./paper-section";
import { SaveStatus } from "./save-status";
import { usePaperBuilder } from "./use-paper-builder";

/**
 * The paper builder: paper details, sections and questions on the left, the live blueprint check
 * and exports on the right. State and every edit live in `usePaperBuilder`.
 */
export function PaperBuilder({ id }: { id: string }) {
  const b = usePaperBuilder(id);
  const { draft, check } = b;
  if (b.editor.query.isError) {
    return (
      <Alert variant="destructive">
        {b.editor.query.error.message} <Link href="/papers">Back to papers</Link>
      </Alert>
    );
  }
  if (!draft || !check) return <Skeleton className="h-96" data-testid="paper-loading" />;
  return (
    <div className="flex flex-col gap-4">
      <SaveStatus builder={b} />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <PaperDetails paper={draft} onChange={b.updatePaper} />
          {draft.sections.map((section, si) => (
            <PaperSection key={section.id} builder={b} section={section} index={si} />
          ))}
          <div className="flex flex-wrap gap-2">
            <Button onClick={b.toggleAdding} data-testid="open-add-questions">
              Add questions
            </Button>
            <Button variant="outline" onClick={b.addSection}>
              Add section
            </Button>
          </div>
          {b.adding && (
            <AddQuestions
              subject={draft.subject}
              sections={draft.sections}
              present={b.present}
              busy={b.busy}
              onClose={b.closeAdding}
              onAdd={b.addQuestions}
            />
          )}
        </div>
        <aside className="flex flex-col gap-4 lg:sticky lg:top-[4.5rem] lg:self-start">
          <BlueprintPanel
            check={check}
            blueprint={draft.blueprint}
            onTarget={b.setTarget}
            onSetTotal={b.setTotal}
          />
          <ExportPanel builder={b} />
        </aside>
      </div>
    </div>
  );
}
