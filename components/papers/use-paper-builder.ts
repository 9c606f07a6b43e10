"use client";

import { arrayMove } from "@dnd-kit/sortable";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { usePaperEditor } from "@/hooks/use-paper-editor";
import { usePyqCheck } from "@/hooks/use-papers";
import { countedMarks, numberItems } from "@/lib/papers/check";
import { postPaperItems, postRegenerateItem, postSwapItem } from "@/services/papers.services";
import type { IPaperBlueprint, IPaperItem, IPaperSection } from "@/types/paper.types";

/** Asks before leaving the page while edits are not saved. */
function useLeaveWarning(unsaved: boolean) {
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (unsaved) e.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [unsaved]);
}

/**
 * The paper builder's state: the editable draft with autosave (`usePaperEditor`), the PYQ
 * similarity check of the saved version, and every edit the screen offers as a named action.
 * Local edits change the draft at once; server actions (add, swap, regenerate) run one at a time
 * (`busy`) and replace the draft with the server's answer.
 */
export function usePaperBuilder(id: string) {
  const editor = usePaperEditor(id);
  const { draft, check, state } = editor;
  const pyq = usePyqCheck(id, state === "saved" ? draft?.version : undefined);
  const [busy, setBusy] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  useLeaveWarning(state === "dirty" || state === "saving" || state === "error");

  async function server(
    label: string,
    action: (version: number) => ReturnType<typeof postSwapItem>,
    ok?: string,
  ) {
    setBusy(label);
    try {
      await editor.runServer(action);
      if (ok) toast.success(ok);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "That did not work");
    } finally {
      setBusy(null);
    }
  }

  const updateSection = (sectionId: string, edit: (s: IPaperSection) => void) =>
    editor.update((p) => {
      const s = p.sections.find((x) => x.id === sectionId);
      if (s) edit(s);
    });

  function setTarget(
    group: keyof Omit<IPaperBlueprint, "tolerance">,
    key: string,
    value: number | undefined,
  ) {
    editor.update((p) => {
      const bp: IPaperBlueprint = p.blueprint ?? { tolerance: 0 };
      const targets = { ...(bp[group] as Record<string, number> | undefined) };
      if (value === undefined) delete targets[key];
      else targets[key] = value;
      (bp as unknown as Record<string, unknown>)[group] = Object.keys(targets).length ? targets : undefined;
      p.blueprint = bp;
    });
  }

  function addSection() {
    editor.update((p) =>
      p.sections.push({
        id: crypto.randomUUID(),
        name: `Section ${String.fromCharCode(65 + (p.sections.length % 26))}`,
        questionType: "mixed",
        items: [],
      }),
    );
  }

  const numbers = draft ? numberItems(draft) : new Map<string, number>();
  const present = new Set(
    (draft?.sections ?? []).flatMap((s) =>
      s.items.map((i) => i.question.sourceQuestionId).filter((x): x is string => !!x),
    ),
  );

  return {
    id,
    editor,
    draft,
    check,
    state,
    pyq,
    busy: busy !== null,
    adding,
    toggleAdding: () => setAdding((a) => !a),
    closeAdding: () => setAdding(false),
    numbers,
    present,
    exportReady: !!check && check.problems.length === 0 && state === "saved",
    updatePaper: editor.update,
    /** The one-click fix when the questions add up to another total than the paper's maximum. */
    setTotal: (marks: number) =>
      editor.update((p) => {
        p.totalMarks = Math.max(1, Math.min(1000, marks));
      }),
    updateSection,
    removeSection: (index: number) => editor.update((p) => void p.sections.splice(index, 1)),
    addSection,
    setTarget,
    addQuestions: (questionIds: string[], sectionId?: string) =>
      void server("add", (version) =>
        postPaperItems(id, { questionIds, ...(sectionId ? { sectionId } : {}), version }),
      ),
    itemActions: (section: IPaperSection, item: IPaperItem, index: number) =>
      itemActions({ editor, updateSection, server, id, numbers }, section, item, index),
  };
}

export type TPaperBuilder = ReturnType<typeof usePaperBuilder>;

/** What one question row can do: edit, remove, reorder, move, OR-pair, swap and regenerate. */
function itemActions(
  ctx: {
    editor: ReturnType<typeof usePaperEditor>;
    updateSection: (sectionId: string, edit: (s: IPaperSection) => void) => void;
    server: (
      label: string,
      action: (version: number) => ReturnType<typeof postSwapItem>,
      ok?: string,
    ) => Promise<void>;
    id: string;
    numbers: Map<string, number>;
  },
  section: IPaperSection,
  item: IPaperItem,
  ii: number,
) {
  const { editor, updateSection, server, id, numbers } = ctx;
  return {
    onChange: (edit: (it: IPaperItem) => void) =>
      updateSection(section.id, (s) => {
        const it = s.items.find((x) => x.id === item.id);
        if (it) edit(it);
      }),
    onRemove: () => updateSection(section.id, (s) => void s.items.splice(ii, 1)),
    onMove: (to: string) =>
      editor.update((p) => {
        const from = p.sections.find((s) => s.id === section.id)!;
        const target = p.sections.find((s) => s.id === to);
        const idx = from.items.findIndex((x) => x.id === item.id);
        if (!target || idx < 0) return;
        const [moved] = from.items.splice(idx, 1);
        if (target.marksPerQuestion) moved!.marks = target.marksPerQuestion;
        target.items.push(moved!);
      }),
    onPairWithNext: () => {
      const next = section.items[ii + 1];
      if (!next || next.question.type !== item.question.type) {
        toast.error("An OR pair needs two questions of the same type");
        return;
      }
      updateSection(section.id, (s) => {
        s.items[ii]!.alternative = s.items[ii + 1]!.question;
        s.items.splice(ii + 1, 1);
      });
      // The pair counts once: the total drops by the second question's marks. Offer the fix.
      const paper = editor.draft;
      if (!paper) return;
      const after = countedMarks(paper) - next.marks;
      if (after !== paper.totalMarks && after > 0) {
        toast(`Questions ${numbers.get(item.id)} and ${numbers.get(next.id)} are now one OR choice`, {
          description: `The paper now adds up to ${after} of ${paper.totalMarks} marks.`,
          action: {
            label: `Set maximum to ${after}`,
            onClick: () =>
              editor.update((p) => {
                p.totalMarks = after;
              }),
          },
        });
      }
    },
    onSplitOr: () =>
      updateSection(section.id, (s) => {
        const it = s.items[ii]!;
        const alt = it.alternative;
        if (!alt) return;
        it.alternative = undefined;
        s.items.splice(ii + 1, 0, { id: crypto.randomUUID(), marks: it.marks, question: alt });
      }),
    onSwap: () =>
      void server("swap", (v) => postSwapItem(id, item.id, v), `Question ${numbers.get(item.id)} swapped`),
    onRegenerate: () =>
      void server(
        "regenerate",
        (v) => postRegenerateItem(id, item.id, v),
        `Question ${numbers.get(item.id)} regenerated`,
      ),
  };
}

/** Moves a dragged question within its section. */
export function reorderItems(s: IPaperSection, activeId: string | number, overId: string | number) {
  const from = s.items.findIndex((i) => i.id === activeId);
  const to = s.items.findIndex((i) => i.id === overId);
  if (from >= 0 && to >= 0) s.items = arrayMove(s.items, from, to);
}
