import type { ISentence } from "@/lib/generation/offline/knowledge";

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
