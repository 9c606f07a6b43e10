import type { ISentence } from "@/lib/generation/offline/knowledge";
import type { IContextChunk } from "@/types/generation.types";

/**
 * A passage sentence for the knowledge extractors' unit tests: standalone exposition at the top of
 * a block, from chunk "k" unless `over` says otherwise.
 */
export const testSentence = (text: string, over: Partial<ISentence> = {}): ISentence => ({
  text,
  chunkKey: "k",
  heading: "",
  section: "",
  position: 0,
  sideBox: false,
  standalone: true,
  ...over,
});

/** A book passage for the forms' unit tests: `section` "4.2 …" sits under "Chapter 4". */
export const testChunk = (content: string, i: number, section: string, documentId: string): IContextChunk =>
  ({
    documentId,
    chunkIndex: i,
    title: "Book",
    content,
    sectionPath: `Chapter ${section.split(".")[0]} > ${section}`,
  }) as IContextChunk;
