import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import type { TFacetsResponse } from "@/schema/retrieval.schema";
import type { EResourceType } from "@/types/curriculum.types";
import { facetRows, visibleResources } from "./store";

const TYPE_ORDER: Record<EResourceType, number> = { textbook: 0, pyq: 1, notes: 2, other: 3 };

/** "Biology 2e — Ch 4 Cell Structure" is part of "Biology 2e"; a title without " — " is its own group. */
export function resourceGroup(title: string): string {
  const i = title.indexOf(" — ");
  return i > 0 ? title.slice(0, i).trim() : title;
}

type TSubjectFacet = TFacetsResponse["boards"][number]["grades"][number]["subjects"][number];

/** Board → Class → Subject tree of what the caller can search (ready documents only). */
export async function loadFacets(db: ISqlExecutor, userId: string): Promise<TFacetsResponse["boards"]> {
  const rows = await facetRows(db, userId);
  const resources = await visibleResources(db, userId);
  const boards = new Map<string, Map<string, Map<string, TSubjectFacet>>>();
  for (const r of rows) {
    const grades = boards.get(r.board) ?? new Map<string, Map<string, TSubjectFacet>>();
    boards.set(r.board, grades);
    const subjects = grades.get(r.grade) ?? new Map<string, TSubjectFacet>();
    grades.set(r.grade, subjects);
    const s: TSubjectFacet = subjects.get(r.subject) ?? {
      subject: r.subject,
      resourceTypes: [],
      chapters: [],
      chunkCount: 0,
      resources: [],
    };
    subjects.set(r.subject, s);
    if (!s.resourceTypes.includes(r.resource_type)) s.resourceTypes.push(r.resource_type);
    if (
      (r.chapter_number !== null || r.chapter_name) &&
      !s.chapters.some((c) => c.number === r.chapter_number && c.name === r.chapter_name)
    ) {
      s.chapters.push({ number: r.chapter_number, name: r.chapter_name });
    }
    s.chunkCount += r.chunks;
  }
  const naturalSort = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });
  for (const r of resources) {
    const s = boards.get(r.board)?.get(r.grade)?.get(r.subject);
    s?.resources.push({
      id: r.id,
      title: r.title,
      resourceType: r.resource_type,
      chapterNumber: r.chapter_number,
      chapterName: r.chapter_name,
      group: resourceGroup(r.title),
    });
  }
  for (const grades of boards.values())
    for (const subjects of grades.values())
      for (const s of subjects.values())
        s.resources.sort(
          (a, b) =>
            TYPE_ORDER[a.resourceType] - TYPE_ORDER[b.resourceType] ||
            naturalSort(a.group, b.group) ||
            (a.chapterNumber ?? Number.MAX_SAFE_INTEGER) - (b.chapterNumber ?? Number.MAX_SAFE_INTEGER) ||
            naturalSort(a.title, b.title),
        );
  return [...boards.entries()]
    .sort(([a], [b]) => naturalSort(a, b))
    .map(([board, grades]) => ({
      board,
      grades: [...grades.entries()]
        .sort(([a], [b]) => naturalSort(a, b))
        .map(([grade, subjects]) => ({
          grade,
          subjects: [...subjects.values()].sort((a, b) => naturalSort(a.subject, b.subject)),
        })),
    }));
}
