import type { IContextChunk } from "@/types/generation.types";
import { type ISupport, supportTable } from "../offline/forms";
import type { IOfflineGenerator } from "../offline/generator";
import { dryRun, type TSupportCounts } from "./dry-run";
import { buildRunCore, dryRunOf } from "./offload";

/**
 * What the selected passages can support per question type and Bloom level (the blueprint
 * panel's table), read as generation will read them: the offline forms' candidates that pass
 * the quality gate, distinct facts, up to `DRY_RUN_CAP` (`dry-run.ts`) — the same counts an
 * offline set is planned on (for the same seed). A 0 says why: no material for the level, or
 * material whose every draft the gate refused.
 */
export function supportOf(
  chunks: readonly IContextChunk[],
  scope: readonly IContextChunk[] = [],
  seed = 1,
): ISupport[] {
  const core = buildRunCore(chunks, scope, { seed, useSection: false });
  const counts = dryRunOf(core, { seed }).cells;
  const section = sectionCounts(chunks, scope, seed, core.offline);
  return supportTable(core.offline.kb).map((row) => {
    const count = counts[row.type][row.level];
    const withSection = Math.max(count, section?.[row.type][row.level] ?? count);
    if (count > 0) return { ...row, count, reason: "", withSection };
    if (row.count === 0) return { ...row, withSection };
    return {
      ...row,
      count: 0,
      reason: `the passages hold material for ${row.level}, but every ${row.type === "mcq" ? "MCQ" : `${row.type}-answer`} question built from it failed the quality gate`,
      withSection,
    };
  });
}

/**
 * The same dry run with the rest of the selected passages' section(s) ("Also use the rest of the
 * section"), so the panel can say what ticking it would add; null when the selection already is
 * its whole section.
 */
function sectionCounts(
  chunks: readonly IContextChunk[],
  scope: readonly IContextChunk[],
  seed: number,
  selection: IOfflineGenerator,
): TSupportCounts | null {
  // The selection's own generator is the one the first dry run built; only the wider one is new.
  const wide = buildRunCore(chunks, scope, { seed, useSection: true }, selection);
  const generator = wide.widened();
  if (!generator) return null;
  return dryRun(generator, wide.gateCtx, { seed }).cells;
}
