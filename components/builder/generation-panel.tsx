"use client";

import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert, Progress } from "@/components/ui/misc";
import { useGeneration } from "@/hooks/use-generation";
import type { TRetrievalItem } from "@/schema/retrieval.schema";
import { patchQuestion, regenerateQuestion } from "@/services/generation.services";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import {
  type EQuestionType,
  type EStrategy,
  type ISlot,
  QUESTION_TYPES,
  STRATEGIES,
  type TQuestion,
  type TQuestionPartData,
} from "@/types/generation.types";
import { AddToPaper } from "./add-to-paper";
import { blueprintError, levelTargets } from "./blueprint";
import { MixChart } from "./mix-chart";
import { QuestionCard } from "./question-card";

const DEFAULT_MARKS: Record<EQuestionType, number> = { mcq: 1, short: 3, long: 5 };
const LABEL: Record<EQuestionType, string> = { mcq: "MCQ", short: "Short answer", long: "Long answer" };

export function GenerationPanel({
  filters,
  context,
  topic,
  bloomTargets,
  onBack,
}: {
  filters: { board: string; grade: string; subject: string };
  context: TRetrievalItem[];
  /** The query the passages were found with: what the questions should be about. */
  topic?: string;
  bloomTargets: EBloomLevel[];
  onBack: () => void;
}) {
  const [counts, setCounts] = useState<Record<EQuestionType, number>>({ mcq: 4, short: 2, long: 1 });
  const [marks, setMarks] = useState<Record<EQuestionType, number>>(DEFAULT_MARKS);
  const [levels, setLevels] = useState<EBloomLevel[]>(bloomTargets.length ? bloomTargets : [...BLOOM_LEVELS]);
  const [strategy, setStrategy] = useState<EStrategy>("grounded");
  const [approved, setApproved] = useState<Set<string>>(new Set());
  const [perLevel, setPerLevel] = useState<Partial<Record<EBloomLevel, number>> | null>(null);
  const [overrides, setOverrides] = useState<Record<string, TQuestion>>({});
  const [regenerating, setRegenerating] = useState<string | null>(null);
  const [rejected, setRejected] = useState<Set<string>>(new Set());
  // A regenerated question is saved in its own one-question set: reviews and "add to paper"
  // then address it by that id, not the slot's.
  const [sourceIds, setSourceIds] = useState<Record<string, string>>({});
  const persistedId = (slotId: string): string | null => sourceIds[slotId] ?? (gen.set ? slotId : null);
  const gen = useGeneration();
  const total = QUESTION_TYPES.reduce((n, t) => n + counts[t], 0);
  const form = { counts, marks, levels, perLevel };
  const invalid = blueprintError(form);
  const contextRefs = context.map((c) => ({ documentId: c.documentId, chunkIndex: c.chunkIndex }));
  const parts = gen.questions.map((q): TQuestionPartData => {
    const override = overrides[q.slot.id];
    return override ? { slot: q.slot, status: "final", question: override } : q;
  });
  const finals = parts.flatMap((q) => (q.status === "final" ? [q.question] : []));
  const byLevel = Object.fromEntries(
    BLOOM_LEVELS.map((l) => [l, finals.filter((q) => q.bloomLevel === l).length]),
  ) as Record<EBloomLevel, number>;
  const byType = Object.fromEntries(
    QUESTION_TYPES.map((t) => [t, finals.filter((q) => q.type === t).length]),
  ) as Record<EQuestionType, number>;

  async function regenerate(slot: ISlot) {
    setRegenerating(slot.id);
    try {
      // Lead with a different passage each time so the replacement draws on other evidence.
      const shift = (Object.keys(overrides).length + slot.index + 1) % Math.max(1, contextRefs.length);
      const q = await regenerateQuestion({
        filters,
        context: [...contextRefs.slice(shift), ...contextRefs.slice(0, shift)],
        blueprint: { items: [{ type: slot.type, count: 1, bloomLevel: slot.bloomLevel, marks: slot.marks }] },
        strategy,
        ...(topic ? { topic: topic.slice(0, 500) } : {}),
        avoidPrompts: finals.map((f) => f.promptText),
        seed: Math.floor(Math.random() * 1_000_000),
      });
      setOverrides((cur) => ({ ...cur, [slot.id]: { ...q, id: slot.id } }));
      setSourceIds((cur) => ({ ...cur, [slot.id]: q.id }));
      setApproved((cur) => {
        const n = new Set(cur);
        n.delete(slot.id);
        return n;
      });
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "Could not regenerate the question");
    } finally {
      setRegenerating(null);
    }
  }
  const running = gen.status === "submitted" || gen.status === "streaming";
  const done = gen.questions.filter((q) => q.status === "final").length;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <Button variant="outline" size="sm" onClick={onBack}>
          ← Back to results
        </Button>
        <span className="text-sm text-muted-foreground">
          {context.length} passages as context · {filters.board} / {filters.grade} / {filters.subject}
        </span>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Blueprint</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="grid gap-3 sm:grid-cols-3">
            {QUESTION_TYPES.map((t) => (
              <div key={t} className="flex items-end gap-2">
                <div className="flex flex-1 flex-col gap-1.5">
                  <Label htmlFor={`count-${t}`}>{LABEL[t]}</Label>
                  <Input
                    id={`count-${t}`}
                    data-testid={`count-${t}`}
                    type="number"
                    min={0}
                    max={50}
                    value={counts[t]}
                    onChange={(e) =>
                      setCounts({ ...counts, [t]: Math.max(0, Math.min(50, Number(e.target.value) || 0)) })
                    }
                  />
                </div>
                <div className="flex w-20 flex-col gap-1.5">
                  <Label htmlFor={`marks-${t}`}>Marks</Label>
                  <Input
                    id={`marks-${t}`}
                    type="number"
                    min={1}
                    max={20}
                    value={marks[t]}
                    onChange={(e) =>
                      setMarks({ ...marks, [t]: Math.max(1, Math.min(20, Number(e.target.value) || 1)) })
                    }
                  />
                </div>
              </div>
            ))}
          </div>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              data-testid="per-level-toggle"
              checked={perLevel !== null}
              onChange={(e) => setPerLevel(e.target.checked ? levelTargets(form) : null)}
            />
            Set exact questions per Bloom level
          </label>
          {perLevel && (
            <div className="grid grid-cols-3 gap-2 sm:grid-cols-6" data-testid="per-level">
              {BLOOM_LEVELS.map((l) => (
                <div key={l} className="flex flex-col gap-1">
                  <Label htmlFor={`level-${l}`}>{l}</Label>
                  <Input
                    id={`level-${l}`}
                    type="number"
                    min={0}
                    max={60}
                    value={perLevel[l] ?? 0}
                    onChange={(e) =>
                      setPerLevel({ ...perLevel, [l]: Math.max(0, Number(e.target.value) || 0) })
                    }
                  />
                </div>
              ))}
            </div>
          )}
          <fieldset className="flex flex-wrap gap-3 text-sm" disabled={perLevel !== null}>
            <legend className="mb-1 font-medium">Bloom levels (spread evenly)</legend>
            {BLOOM_LEVELS.map((l) => (
              <label key={l} className="flex items-center gap-1.5">
                <input
                  type="checkbox"
                  checked={levels.includes(l)}
                  onChange={(e) =>
                    setLevels((cur) => (e.target.checked ? [...cur, l] : cur.filter((x) => x !== l)))
                  }
                />
                {l}
              </label>
            ))}
          </fieldset>
          <div className="flex flex-wrap items-end gap-3">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="strategy">Strategy</Label>
              <NativeSelect
                id="strategy"
                value={strategy}
                onChange={(e) => setStrategy(e.target.value as EStrategy)}
              >
                {STRATEGIES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </NativeSelect>
            </div>
            <Button
              data-testid="generate"
              disabled={!!invalid || running}
              onClick={() => {
                setApproved(new Set());
                setRejected(new Set());
                setOverrides({});
                setSourceIds({});
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
                  blueprint: distribution
                    ? { items, bloomDistribution: distribution }
                    : { items, bloomTargets: levels },
                  strategy,
                  ...(topic ? { topic: topic.slice(0, 500) } : {}),
                });
              }}
            >
              {running ? "Generating…" : `Generate ${total} questions`}
            </Button>
            {running && (
              <Button variant="outline" onClick={() => gen.stop()}>
                Stop
              </Button>
            )}
            {invalid && (
              <span className="text-sm text-destructive" data-testid="blueprint-error">
                {invalid}
              </span>
            )}
          </div>
        </CardContent>
      </Card>
      {gen.error && (
        <Alert variant="destructive" data-testid="generation-error">
          {gen.error}
        </Alert>
      )}
      {gen.notices.map((n) => (
        <Alert key={n}>{n}</Alert>
      ))}
      {(running || gen.questions.length > 0) && (
        <div className="flex items-center gap-3 text-sm" data-testid="generation-progress">
          <Progress
            value={gen.questions.length ? (100 * done) / gen.questions.length : 5}
            className="max-w-xs"
          />
          <span>
            {done} of {gen.questions.length || total} ready
          </span>
          {gen.set && (
            <span className="text-muted-foreground" data-testid="set-saved">
              Saved set ({gen.set.generated}/{gen.set.requested})
            </span>
          )}
        </div>
      )}
      {gen.errors
        .filter((e) => !e.slotId)
        .map((e) =>
          // The offline generator answering for an unresponsive provider is a notice, not a failure.
          e.code === "llm_unavailable" ? (
            <Alert key={e.message} data-testid="provider-notice">
              {e.message}
            </Alert>
          ) : (
            <Alert key={e.message} variant="destructive">
              {e.message}
            </Alert>
          ),
        )}
      {finals.length > 0 && !running && (
        <MixChart byLevel={byLevel} targets={levelTargets(form)} byType={byType} />
      )}
      {gen.set && !running && (
        <AddToPaper
          filters={filters}
          setTitle={`${filters.subject} test`}
          questionIds={parts
            .filter((p) => p.status === "final" && approved.has(p.slot.id) && !rejected.has(p.slot.id))
            .map((p) => persistedId(p.slot.id))
            .filter((x): x is string => x !== null)}
        />
      )}
      <div className="grid gap-3 lg:grid-cols-2" data-testid="questions">
        {parts.map((q, i) => (
          <QuestionCard
            key={q.slot.id}
            part={q}
            index={i}
            stopped={!running}
            regenerating={regenerating === q.slot.id}
            rejected={rejected.has(q.slot.id)}
            onReject={() => {
              const next = !rejected.has(q.slot.id);
              setRejected((cur) => {
                const n = new Set(cur);
                if (next) n.add(q.slot.id);
                else n.delete(q.slot.id);
                return n;
              });
              if (next) setApproved((cur) => new Set([...cur].filter((id) => id !== q.slot.id)));
              const pid = persistedId(q.slot.id);
              if (pid) {
                patchQuestion(pid, { status: next ? "rejected" : "draft" }).catch((err: Error) =>
                  toast.error(err.message),
                );
              }
            }}
            onEdit={(promptText) => {
              const current = overrides[q.slot.id] ?? (q.status === "final" ? q.question : undefined);
              if (current) setOverrides((cur) => ({ ...cur, [q.slot.id]: { ...current, promptText } }));
              const pid = persistedId(q.slot.id);
              if (pid) {
                patchQuestion(pid, { promptText }).catch((err: Error) => toast.error(err.message));
              }
            }}
            onRegenerate={running ? undefined : () => void regenerate(q.slot)}
            approved={approved.has(q.slot.id)}
            onApprove={() => {
              const next = !approved.has(q.slot.id);
              setApproved((cur) => {
                const n = new Set(cur);
                if (next) n.add(q.slot.id);
                else n.delete(q.slot.id);
                return n;
              });
              // The review state is kept with the saved set.
              const pid = persistedId(q.slot.id);
              if (pid) {
                patchQuestion(pid, { status: next ? "approved" : "draft" }).catch((err: Error) =>
                  toast.error(err.message),
                );
              }
            }}
          />
        ))}
      </div>
    </div>
  );
}
