import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import type { ENavigation, ISessionTurn } from "../follow-up";
import { type IScopeChapter, sectionPathsInOrder } from "../store";

export interface INavigationTarget {
  /** Chapter to search in. */
  chapter: number;
  /** Book-level section to put first (`documentId|Chapter > N.M title`), or null for a whole chapter. */
  sectionKey: string | null;
  /** What to search for there: the section's or the chapter's title. */
  text: string;
  label: string;
}

const twoLevels = (path: string) => path.split(" > ").slice(0, 2).join(" > ");
const titleOf = (segment: string) => segment.replace(/^(?:Chapter\s+)?[\d.]+:?\s*/i, "").trim();

/**
 * "The next section" / "the previous chapter": the neighbour of the section the previous turn's
 * best passage came from, in book order (chunk order within its document; chapter numbers across
 * documents). Null when there is none (the last section, a chapter not in scope).
 */
export async function resolveNavigation(
  db: ISqlExecutor,
  anchor: NonNullable<ISessionTurn["anchor"]>,
  navigation: ENavigation,
  chapters: readonly IScopeChapter[],
): Promise<INavigationTarget | null> {
  if (navigation === "next-chapter" || navigation === "previous-chapter") {
    if (anchor.chapterNumber === null) return null;
    const numbers = chapters.map((c) => c.number).sort((a, b) => a - b);
    const at = numbers.indexOf(anchor.chapterNumber);
    const target = navigation === "next-chapter" ? numbers[at + 1] : at > 0 ? numbers[at - 1] : undefined;
    const chapter = chapters.find((c) => c.number === target);
    if (!chapter) return null;
    return {
      chapter: chapter.number,
      sectionKey: null,
      text: chapter.name,
      label: `chapter ${chapter.number}: ${chapter.name}`,
    };
  }
  const sections: string[] = [];
  for (const path of await sectionPathsInOrder(db, anchor.documentId)) {
    const s = twoLevels(path);
    if (sections.at(-1) !== s) sections.push(s);
  }
  const at = sections.indexOf(twoLevels(anchor.sectionPath));
  if (at < 0 || anchor.chapterNumber === null) return null;
  const target = sections[navigation === "next-section" ? at + 1 : at - 1];
  if (!target) return null;
  const title = titleOf(target.split(" > ").at(-1) ?? target);
  return {
    chapter: anchor.chapterNumber,
    sectionKey: `${anchor.documentId}|${target}`,
    text: title,
    label: target.split(" > ").at(-1) ?? target,
  };
}
