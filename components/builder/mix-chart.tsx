import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType } from "@/types/generation.types";

/** Bars of the set's Bloom mix (generated vs target) and type mix. */
export function MixChart({
  byLevel,
  targets,
  byType,
}: {
  byLevel: Record<EBloomLevel, number>;
  targets: Record<EBloomLevel, number>;
  byType: Record<EQuestionType, number>;
}) {
  const max = Math.max(1, ...BLOOM_LEVELS.map((l) => Math.max(byLevel[l], targets[l])));
  return (
    <figure
      className="grid gap-4 rounded-md border border-border p-3 text-xs md:grid-cols-2"
      data-testid="mix-chart"
    >
      <div className="flex flex-col gap-1">
        <figcaption className="font-medium">Bloom mix: generated vs target</figcaption>
        {BLOOM_LEVELS.map((l) => (
          <div key={l} className="grid grid-cols-[6rem_1fr_3rem] items-center gap-2">
            <span>{l}</span>
            <div className="relative h-3 rounded bg-muted" aria-hidden>
              <div
                className="absolute h-3 rounded bg-primary/80"
                style={{ width: `${(100 * byLevel[l]) / max}%` }}
              />
              <div
                className="absolute h-3 border-r-2 border-foreground"
                style={{ width: `${(100 * targets[l]) / max}%` }}
              />
            </div>
            <span className={byLevel[l] === targets[l] ? "text-success" : "text-destructive"}>
              {byLevel[l]}/{targets[l]}
            </span>
          </div>
        ))}
      </div>
      <div className="flex flex-col gap-1">
        <span className="font-medium">Question types</span>
        {(Object.keys(byType) as EQuestionType[]).map((t) => (
          <div key={t} className="grid grid-cols-[6rem_1fr_2rem] items-center gap-2">
            <span>{t.toUpperCase()}</span>
            <div
              className="h-3 rounded bg-accent"
              style={{ width: `${Math.min(100, 10 * byType[t])}%` }}
              aria-hidden
            />
            <span>{byType[t]}</span>
          </div>
        ))}
      </div>
    </figure>
  );
}
