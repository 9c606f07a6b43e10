"use client";

import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Checkbox, Slider } from "@/components/ui/misc";
import { BLOOM_DESCRIPTIONS, BLOOM_LEVELS } from "@/types/bloom.types";
import type { TBuilderSettings } from "./use-questions-builder";

/**
 * How many passages, the balance between exact words and meaning (the hybrid weight α), reranking,
 * preview length and Bloom targets, folded away by default and labelled in a teacher's words.
 */
export function AdvancedSettings({
  settings,
  autoAlpha,
}: {
  settings: TBuilderSettings;
  /** The classifier's α from the last answer, shown while α is automatic. */
  autoAlpha: number | undefined;
}) {
  const { alpha } = settings;
  return (
    <details className="rounded-md border border-border p-3 text-sm" data-testid="advanced">
      <summary className="cursor-pointer font-medium">Advanced settings</summary>
      <div className="mt-3 grid gap-4 md:grid-cols-3">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="topk">Passages to find</Label>
          <Input
            id="topk"
            type="number"
            min={1}
            max={50}
            value={settings.topKText}
            aria-invalid={settings.topKError !== null}
            aria-describedby={settings.topKError ? "topk-error" : undefined}
            onChange={(e) => settings.typeTopK(e.target.value)}
          />
          {settings.topKError && (
            <p id="topk-error" className="text-xs text-destructive" data-testid="topk-error">
              {settings.topKError} Searching with {settings.topK}.
            </p>
          )}
        </div>
        <div className="flex flex-col gap-1.5">
          <span className="text-sm font-medium">
            Exact words ↔ meaning:{" "}
            {alpha === null ? `auto (${autoAlpha?.toFixed(2) ?? "from the query"})` : alpha.toFixed(2)}
          </span>
          <Slider
            aria-label="Balance between exact words and meaning"
            min={0}
            max={1}
            step={0.05}
            // While automatic the thumb sits at the classifier's last choice and reads "auto".
            value={[alpha ?? autoAlpha ?? 0.5]}
            aria-valuetext={
              alpha === null
                ? `auto${autoAlpha !== undefined ? ` (${autoAlpha.toFixed(2)})` : ""}`
                : alpha.toFixed(2)
            }
            onValueChange={(v) => settings.setAlpha(v[0] ?? 0.5)}
          />
          {alpha !== null && (
            <button
              type="button"
              className="self-start text-xs text-primary underline"
              onClick={() => settings.setAlpha(null)}
            >
              Back to automatic
            </button>
          )}
        </div>
        <div className="flex items-center gap-1.5">
          <Checkbox
            id="rerank"
            data-testid="rerank-toggle"
            checked={settings.rerank}
            onCheckedChange={(v) => settings.setRerank(!!v)}
          />
          <Label
            htmlFor="rerank"
            className="font-normal"
            title="Re-score the best candidates against the whole query before showing them"
          >
            Rerank results
          </Label>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="maxtok">Preview length (words)</Label>
          <Input
            id="maxtok"
            type="number"
            min={50}
            max={2000}
            value={settings.maxTokens}
            onChange={(e) => settings.setMaxTokens(Number(e.target.value) || 400)}
          />
        </div>
        <fieldset className="flex flex-wrap gap-3 md:col-span-3">
          <legend className="mb-1 text-sm font-medium">Bloom levels</legend>
          {BLOOM_LEVELS.map((l) => (
            <div
              key={l}
              className="flex items-center gap-1.5"
              title={`${BLOOM_DESCRIPTIONS[l].definition} Verbs: ${BLOOM_DESCRIPTIONS[l].verbs.join(", ")}`}
            >
              <Checkbox
                id={`bloom-${l}`}
                checked={settings.bloom.includes(l)}
                onCheckedChange={(v) => settings.toggleBloom(l, !!v)}
              />
              <Label htmlFor={`bloom-${l}`} className="font-normal">
                {l}
              </Label>
            </div>
          ))}
        </fieldset>
      </div>
    </details>
  );
}
