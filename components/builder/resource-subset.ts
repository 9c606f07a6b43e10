import { plural } from "@/lib/text/plural";
import type { TFacetResource } from "@/schema/retrieval.schema";

/** "5–7, 9": sorted chapter numbers with consecutive runs joined. */
export function chapterRanges(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    runs.push(j === i ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return runs.join(", ");
}

/**
 * The chosen resources, or null for all of them. A choice naming every resource is "all" (null),
 * and ids the subject does not have (a stale URL) are dropped; an empty choice stays empty.
 */
export function normaliseSubset(
  resources: readonly Pick<TFacetResource, "id">[],
  chosen: readonly string[] | null,
): string[] | null {
  if (chosen === null) return null;
  const known = new Set(resources.map((r) => r.id));
  const kept = [...new Set(chosen)].filter((id) => known.has(id));
  if (resources.length > 0 && kept.length === resources.length) return null;
  // Only ids the subject does not have (an old link): all of them, not an empty choice.
  if (chosen.length > 0 && kept.length === 0) return null;
  return kept;
}

/** "All 5 resources", "2 of 5 resources · chapters 5–7", "No resources chosen". */
export function subsetSummary(
  resources: readonly TFacetResource[],
  chosen: readonly string[] | null,
): string {
  const total = resources.length;
  if (chosen === null) return total === 1 ? "The 1 resource" : `All ${plural(total, "resource")}`;
  if (chosen.length === 0) return "No resources chosen";
  const picked = resources.filter((r) => chosen.includes(r.id));
  const chapters = picked.flatMap((r) => (r.chapterNumber === null ? [] : [r.chapterNumber]));
  const head = `${picked.length} of ${plural(total, "resource")}`;
  if (chapters.length === 0) return head;
  return `${head} · ${chapters.length === 1 ? "chapter" : "chapters"} ${chapterRanges(chapters)}`;
}

export interface IResourceGroup {
  group: string;
  resourceType: TFacetResource["resourceType"];
  resources: TFacetResource[];
}

/** Resources under their book or paper (the facets list them sorted by type, group, chapter). */
export function groupResources(resources: readonly TFacetResource[]): IResourceGroup[] {
  const out: IResourceGroup[] = [];
  for (const r of resources) {
    const last = out.at(-1);
    if (last && last.group === r.group && last.resourceType === r.resourceType) last.resources.push(r);
    else out.push({ group: r.group, resourceType: r.resourceType, resources: [r] });
  }
  return out;
}

/** Ticks or unticks some resources; the result is normalised (every resource = all = null). */
export function toggleResources(
  resources: readonly TFacetResource[],
  chosen: readonly string[] | null,
  ids: readonly string[],
  on: boolean,
): string[] | null {
  const current = new Set(chosen ?? resources.map((r) => r.id));
  for (const id of ids) on ? current.add(id) : current.delete(id);
  return normaliseSubset(resources, [...current]);
}
