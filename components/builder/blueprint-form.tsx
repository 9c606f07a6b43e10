"use client";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { plural } from "@/lib/text/plural";
import { QUESTION_TYPES, STRATEGIES } from "@/schema/enums.schema";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import type { EQuestionType, EStrategy } from "@/types/generation.types";
import type { TBlueprintForm } from "./use-generation-panel";

const LABEL: Record<EQuestionType, string> = { mcq: "MCQ", short: "Short answer", long: "Long answer" };

/** The generation strategies in the teacher's words; the technical name is under "Details". */
const STRATEGY_WORDS: Record<EStrategy, string> = {
  grounded: "Use the passages only",
  "few-shot": "Follow past-paper examples",
  cot: "Think step by step",
  "self-consistency": "Write several and keep the best",
};

/** "Blueprint": questions and marks per type, Bloom levels or exact counts per level, strategy, Generate / Stop. */
export function BlueprintForm({
  form,
  running,
  onGenerate,
  onStop,
}: {
  form: TBlueprintForm;
  running: boolean;
  onGenerate: () => void;
  onStop: () => void;
}) {
  const { perLevel } = form;
  return (
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
                  value={form.counts[t]}
                  onChange={(e) => form.setCount(t, Math.max(0, Math.min(50, Number(e.target.value) || 0)))}
                />
              </div>
              <div className="flex w-20 flex-col gap-1.5">
                <Label htmlFor={`marks-${t}`}>Marks</Label>
                <Input
                  id={`marks-${t}`}
                  type="number"
                  min={1}
                  max={20}
                  value={form.marks[t]}
                  onChange={(e) => form.setMarks(t, Math.max(1, Math.min(20, Number(e.target.value) || 1)))}
                />
              </div>
            </div>
          ))}
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            data-testid="per-level-toggle"
            checked={form.perLevel !== null}
            onChange={(e) => form.setExactPerLevel(e.target.checked)}
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
                  onChange={(e) => form.setLevelCount(l, Math.max(0, Number(e.target.value) || 0))}
                />
              </div>
            ))}
          </div>
        )}
        <fieldset className="flex flex-wrap gap-3 text-sm" disabled={form.perLevel !== null}>
          <legend className="mb-1 font-medium">Bloom levels (spread evenly)</legend>
          {BLOOM_LEVELS.map((l) => (
            <label key={l} className="flex items-center gap-1.5">
              <input
                type="checkbox"
                checked={form.levels.includes(l)}
                onChange={(e) => form.toggleLevel(l, e.target.checked)}
              />
              {l}
            </label>
          ))}
        </fieldset>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            data-testid="use-section"
            checked={form.useSection}
            onChange={(e) => form.setUseSection(e.target.checked)}
          />
          Also use the rest of the section
        </label>
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="strategy">How to write them</Label>
            <NativeSelect
              id="strategy"
              value={form.strategy}
              onChange={(e) => form.setStrategy(e.target.value as EStrategy)}
            >
              {STRATEGIES.map((s) => (
                <option key={s} value={s}>
                  {STRATEGY_WORDS[s]}
                </option>
              ))}
            </NativeSelect>
            <details className="text-xs text-muted-foreground" data-testid="strategy-details">
              <summary className="cursor-pointer">Details</summary>
              Strategy: <code>{form.strategy}</code>
            </details>
          </div>
          <Button data-testid="generate" disabled={!!form.invalid || running} onClick={onGenerate}>
            {running ? "Generating…" : `Generate ${plural(form.total, "question")}`}
          </Button>
          {running && (
            <Button variant="outline" onClick={onStop}>
              Stop
            </Button>
          )}
          {form.invalid && (
            <span className="text-sm text-destructive" data-testid="blueprint-error">
              {form.invalid}
            </span>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
