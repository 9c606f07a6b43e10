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
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { sectionMarks } from "@/lib/papers/check";
import { plural } from "@/lib/text/plural";
import { QUESTION_TYPES } from "@/schema/enums.schema";
import type { IPaperSection } from "@/types/paper.types";
import { PaperItemRow } from "./paper-item";
import { reorderItems, type TPaperBuilder } from "./use-paper-builder";

/** A whole number from 1 to 100 typed into a box, or undefined when empty or below 1. */
const positiveOrUnset = (raw: string): number | undefined => {
  const v = Number(raw);
  return raw === "" || v < 1 ? undefined : Math.min(100, Math.round(v));
};

/** One section of the paper: its settings, instructions and numbered questions (drag to reorder). */
export function PaperSection({
  builder: b,
  section,
  index,
}: {
  builder: TPaperBuilder;
  section: IPaperSection;
  index: number;
}) {
  const confirm = useConfirm();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const edit = (change: (s: IPaperSection) => void) => b.updateSection(section.id, change);
  function onDragEnd(e: DragEndEvent) {
    const over = e.over;
    if (!over || e.active.id === over.id) return;
    edit((s) => reorderItems(s, e.active.id, over.id));
  }
  return (
    <section
      className="flex flex-col gap-2 rounded-lg border border-border bg-card p-4"
      data-testid="paper-section"
      aria-label={section.name}
    >
      <SectionSettings
        section={section}
        onEdit={edit}
        onRemove={async () => {
          if (
            section.items.length === 0 ||
            (await confirm({
              title: `Remove ${section.name} and its questions?`,
              description: "They leave this paper; your saved question sets keep them.",
              confirmLabel: "Remove section",
            }))
          ) {
            b.removeSection(index);
          }
        }}
      />
      <Input
        aria-label={`Instructions for ${section.name}`}
        placeholder="Section instructions (optional)"
        value={section.instructions ?? ""}
        onChange={(e) =>
          edit((s) => {
            s.instructions = e.target.value || undefined;
          })
        }
      />
      {section.items.length === 0 && (
        <p className="rounded-md border border-dashed border-border p-3 text-sm text-muted-foreground">
          No questions yet. Use “Add questions” or “Add to paper” on the Questions page.
        </p>
      )}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={section.items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
          <ol className="flex flex-col gap-2">
            {section.items.map((item, ii) => (
              <PaperItemRow
                key={item.id}
                item={item}
                number={b.numbers.get(item.id) ?? 0}
                section={section}
                sections={b.draft?.sections ?? []}
                pyq={b.pyq.data?.matches[item.id]}
                busy={b.busy}
                canPairWithNext={ii < section.items.length - 1 && !section.items[ii + 1]!.alternative}
                {...b.itemActions(section, item, ii)}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
    </section>
  );
}

/** Section name, the question type it holds, marks per question, "attempt any", totals, remove. */
function SectionSettings({
  section,
  onEdit,
  onRemove,
}: {
  section: IPaperSection;
  onEdit: (change: (s: IPaperSection) => void) => void;
  onRemove: () => void;
}) {
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1">
        <Label htmlFor={`sname-${section.id}`}>Section</Label>
        <Input
          id={`sname-${section.id}`}
          className="w-36"
          value={section.name}
          onChange={(e) =>
            onEdit((s) => {
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
            onEdit((s) => {
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
            onEdit((s) => {
              s.marksPerQuestion = positiveOrUnset(e.target.value);
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
            onEdit((s) => {
              s.attemptAny = positiveOrUnset(e.target.value);
            })
          }
        />
      </div>
      <span className="ml-auto text-sm text-muted-foreground" data-testid="section-marks">
        {plural(section.items.length, "question")} · {plural(sectionMarks(section), "mark")}
      </span>
      <Button size="sm" variant="ghost" aria-label={`Remove ${section.name}`} onClick={onRemove}>
        Remove section
      </Button>
    </div>
  );
}
