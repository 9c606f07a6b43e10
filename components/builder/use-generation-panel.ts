"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { regenerateOne, useGeneration } from "@/hooks/use-generation";
import { applyPatch } from "@/lib/questions/edit";
import { sameQuestion } from "@/lib/questions/same";
import { QUESTION_TYPES } from "@/schema/enums.schema";
import type { TPatchQuestion, TQuestionSet } from "@/schema/generation.schema";
import { patchQuestion } from "@/services/generation.services";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType, EStrategy, ISlot, TQuestion, TQuestionPartData } from "@/types/generation.types";
import { blueprintError, countsFromQuery, levelTargets } from "./blueprint";
import type { TContextRef } from "./use-questions-builder";

const DEFAULT_MARKS: Record<EQuestionType, number> = { mcq: 1, short: 3, long: 5 };

export interface IGenerationPanelProps {
  filters: { board: string; grade: string; subject: string };
  context: TContextRef[];
  /** The query the passages were found with: what the questions should be about. */
  topic?: string;
  bloomTargets: EBloomLevel[];
  /** A saved set reopened: its cards (with their review state) until the teacher generates anew. */
  restored?: TQuestionSet | null;
  /** The teacher changed the blueprint's Bloom levels (kept as the one Bloom choice of the page). */
  onLevelsChange?: (levels: EBloomLevel[]) => void;
  /** Called once with the id of each set this panel generates and saves. */
  onSaved?: (setId: string) => void;
}

/** A saved question as a card: its stored id is its slot id, so reviews save to it. */
function restoredParts(set: TQuestionSet | null | undefined): TQuestionPartData[] {
  return (set?.questions ?? []).map(({ setId: _setId, status: _status, ...question }, index) => ({
    slot: {
      id: question.id,
      index,
      type: question.type,
      bloomLevel: question.bloomLevel,
      marks: question.marks,
      difficulty: question.difficulty,
      sourceKeys: question.contextRefs.map((r) => `${r.documentId}:${r.chunkIndex}`),
    },
    status: "final",
    question: question as TQuestion,
  }));
}

/** How many questions of each type a saved set has. */
function countsOf(set: TQuestionSet): Record<EQuestionType, number> {
  const counts = { mcq: 0, short: 0, long: 0 };
  for (const q of set.questions) counts[q.type] += 1;
  return counts;
}

const idsWith = (set: TQuestionSet | null | undefined, status: "approved" | "rejected") =>
  new Set((set?.questions ?? []).filter((q) => q.status === status).map((q) => q.id));

/** How many questions of each type, their marks, the Bloom levels (or exact counts per level), the strategy. */
function useBlueprintForm(
  bloomTargets: EBloomLevel[],
  topic: string | undefined,
  restored: TQuestionSet | null | undefined,
  onLevelsChange: ((levels: EBloomLevel[]) => void) | undefined,
) {
  // A reopened set's own mix; "Generate 10 MCQs for …" starts at 10 MCQs; otherwise a small mixed set.
  const [counts, setCounts] = useState<Record<EQuestionType, number>>(
    () =>
      (restored?.questions.length ? countsOf(restored) : null) ??
      countsFromQuery(topic ?? "") ?? { mcq: 4, short: 2, long: 1 },
  );
  const [marks, setMarks] = useState<Record<EQuestionType, number>>(() => ({
    ...DEFAULT_MARKS,
    ...Object.fromEntries((restored?.questions ?? []).map((q) => [q.type, q.marks])),
  }));
  const [levels, setLevels] = useState<EBloomLevel[]>(bloomTargets.length ? bloomTargets : [...BLOOM_LEVELS]);
  const [strategy, setStrategy] = useState<EStrategy>("grounded");
  const [perLevel, setPerLevel] = useState<Partial<Record<EBloomLevel, number>> | null>(null);
  // Questions cite only the kept passages unless the teacher also allows the rest of their section.
  const [useSection, setUseSection] = useState(false);
  const form = { counts, marks, levels, perLevel };
  return {
    ...form,
    strategy,
    setStrategy,
    useSection,
    setUseSection,
    setCount: (t: EQuestionType, n: number) => setCounts({ ...counts, [t]: n }),
    setMarks: (t: EQuestionType, n: number) => setMarks({ ...marks, [t]: n }),
    toggleLevel: (l: EBloomLevel, on: boolean) => {
      const next = on ? [...levels, l] : levels.filter((x) => x !== l);
      setLevels(next);
      onLevelsChange?.(next);
    },
    /** Exact counts per level start from the even spread of the current blueprint. */
    setExactPerLevel: (on: boolean) => setPerLevel(on ? levelTargets(form) : null),
    setLevelCount: (l: EBloomLevel, n: number) => setPerLevel({ ...perLevel, [l]: n }),
    total: QUESTION_TYPES.reduce((n, t) => n + counts[t], 0),
    invalid: blueprintError(form),
    targets: () => levelTargets(form),
  };
}

export type TBlueprintForm = ReturnType<typeof useBlueprintForm>;

const toggled = (set: Set<string>, id: string, on: boolean) => {
  const n = new Set(set);
  if (on) n.add(id);
  else n.delete(id);
  return n;
};

/**
 * The generation panel's state: the blueprint form, the streamed set (`useGeneration`), and the
 * teacher's review of it (approve, reject, edit, regenerate one question). Reviews are saved
 * with the stored question as soon as it has an id.
 */
export function useGenerationPanel({
  filters,
  context,
  topic,
  bloomTargets,
  restored,
  onSaved,
  onLevelsChange,
}: IGenerationPanelProps) {
  const blueprint = useBlueprintForm(bloomTargets, topic, restored, onLevelsChange);
  const gen = useGeneration();
  const [approved, setApproved] = useState<Set<string>>(() => idsWith(restored, "approved"));
  const [rejected, setRejected] = useState<Set<string>>(() => idsWith(restored, "rejected"));
  // The reopened set's cards show until Generate starts a new set.
  const shownRestored = restored && gen.status === "ready" && gen.questions.length === 0 ? restored : null;
  const fromRestored = useMemo(() => restoredParts(shownRestored), [shownRestored]);
  const savedSetId = gen.set?.setId ?? shownRestored?.id ?? null;
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  const newSetId = gen.set?.setId;
  useEffect(() => {
    if (newSetId) onSavedRef.current?.(newSetId);
  }, [newSetId]);
  const [overrides, setOverrides] = useState<Record<string, TQuestion>>({});
  const [regenerating, setRegenerating] = useState<string | null>(null);
  // A regenerated question is saved in its own one-question set: reviews and "add to paper"
  // then address it by that id, not the slot's.
  const [sourceIds, setSourceIds] = useState<Record<string, string>>({});
  const persistedId = (slotId: string): string | null => sourceIds[slotId] ?? (savedSetId ? slotId : null);
  const contextRefs = context.map((c) => ({ documentId: c.documentId, chunkIndex: c.chunkIndex }));
  const parts = (shownRestored ? fromRestored : gen.questions).map((q): TQuestionPartData => {
    const override = overrides[q.slot.id];
    return override ? { slot: q.slot, status: "final", question: override } : q;
  });
  const finals = parts.flatMap((q) => (q.status === "final" ? [q.question] : []));
  /** Approved, not rejected, final questions (edits applied): what "Add to paper" adds. */
  const approvedParts = parts.flatMap((p) =>
    p.status === "final" && approved.has(p.slot.id) && !rejected.has(p.slot.id) ? [p] : [],
  );
  const running = gen.status === "submitted" || gen.status === "streaming";
  /** Questions asked for by the running (or last) generation: slots arrive one by one. */
  const [requested, setRequested] = useState(0);

  function generate() {
    setRequested(blueprint.total);
    setApproved(new Set());
    setRejected(new Set());
    setOverrides({});
    setSourceIds({});
    const { counts, marks, perLevel, levels, strategy, useSection } = blueprint;
    const items = QUESTION_TYPES.filter((t) => counts[t] > 0).map((t) => ({
      type: t,
      count: counts[t],
      marks: marks[t],
    }));
    // Exact per-level counts go as a distribution (counts that add up to the total).
    const distribution = perLevel
      ? Object.fromEntries(Object.entries(perLevel).filter(([, n]) => (n ?? 0) > 0))
      : null;
    void gen.generate({
      filters,
      context: contextRefs,
      blueprint: distribution ? { items, bloomDistribution: distribution } : { items, bloomTargets: levels },
      strategy,
      ...(topic ? { topic: topic.slice(0, 500) } : {}),
      ...(useSection ? { useSection: true } : {}),
    });
  }

  async function regenerate(slot: ISlot) {
    setRegenerating(slot.id);
    const replaces = persistedId(slot.id);
    try {
      // Lead with a different passage each time so the replacement draws on other evidence.
      const shift = (Object.keys(overrides).length + slot.index + 1) % Math.max(1, contextRefs.length);
      const q = await regenerateOne({
        filters,
        context: [...contextRefs.slice(shift), ...contextRefs.slice(0, shift)],
        blueprint: { items: [{ type: slot.type, count: 1, bloomLevel: slot.bloomLevel, marks: slot.marks }] },
        strategy: blueprint.strategy,
        ...(topic ? { topic: topic.slice(0, 500) } : {}),
        ...(blueprint.useSection ? { useSection: true } : {}),
        avoidPrompts: finals.map((f) => f.promptText),
        // The stored question this one replaces: "Add questions from your sets" lists the latest once.
        ...(replaces ? { replaces } : {}),
        seed: Math.floor(Math.random() * 1_000_000),
      });
      const current = parts.find((p) => p.slot.id === slot.id);
      if (current?.status === "final" && current.question && sameQuestion(current.question, q)) {
        // The passages hold no other question of this type and level: say so, keep the card.
        toast.info(
          "These passages gave the same question again. Edit it, or choose other passages for a different one.",
        );
        return;
      }
      setOverrides((cur) => ({ ...cur, [slot.id]: { ...q, id: slot.id } }));
      setSourceIds((cur) => ({ ...cur, [slot.id]: q.id }));
      setApproved((cur) => toggled(cur, slot.id, false));
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "Could not regenerate the question");
    } finally {
      setRegenerating(null);
    }
  }

  /** Saves a review change with the stored question (once it has an id); failures are shown, not thrown. */
  function saveReview(slotId: string, body: Parameters<typeof patchQuestion>[1]) {
    const pid = persistedId(slotId);
    if (pid) patchQuestion(pid, body).catch((err: Error) => toast.error(err.message));
  }

  function toggleReject(slotId: string) {
    const next = !rejected.has(slotId);
    setRejected((cur) => toggled(cur, slotId, next));
    if (next) setApproved((cur) => new Set([...cur].filter((id) => id !== slotId)));
    saveReview(slotId, { status: next ? "rejected" : "draft" });
  }

  function toggleApprove(slotId: string) {
    const next = !approved.has(slotId);
    setApproved((cur) => toggled(cur, slotId, next));
    saveReview(slotId, { status: next ? "approved" : "draft" });
  }

  /** An edit by hand (or the key confirmed): shown at once, saved with the stored question. */
  function editQuestion(part: TQuestionPartData, patch: TPatchQuestion) {
    const current = overrides[part.slot.id] ?? (part.status === "final" ? part.question : undefined);
    if (current) setOverrides((cur) => ({ ...cur, [part.slot.id]: applyPatch(current, patch) }));
    saveReview(part.slot.id, patch);
  }

  return {
    blueprint,
    gen,
    running,
    parts,
    finals,
    /** Final cards, a slot filled by "Try again" included. */
    done: parts.filter((q) => q.status === "final").length,
    /** "n of total ready": the set's size, not the slots seen so far ("1 of 2" for a 7-question set). */
    total: Math.max(requested, parts.length),
    /** The saved set on screen (generated here, or reopened), or null while none is saved. */
    savedSetId,
    byLevel: Object.fromEntries(
      BLOOM_LEVELS.map((l) => [l, finals.filter((q) => q.bloomLevel === l).length]),
    ) as Record<EBloomLevel, number>,
    byType: Object.fromEntries(
      QUESTION_TYPES.map((t) => [t, finals.filter((q) => q.type === t).length]),
    ) as Record<EQuestionType, number>,
    /** Their stored ids. */
    approvedIds: approvedParts.map((p) => persistedId(p.slot.id)).filter((x): x is string => x !== null),
    /** Marks of those questions together: the size of a new paper made for exactly them. */
    approvedMarks: approvedParts.reduce((n, p) => n + p.question.marks, 0),
    approved,
    rejected,
    regenerating,
    generate,
    regenerate,
    toggleReject,
    toggleApprove,
    editQuestion,
  };
}
export type TGenerationPanel = ReturnType<typeof useGenerationPanel>;
