import type { IKnowledge } from "@/lib/generation/offline/knowledge";
import { chunkKey, QUESTION_WORTHY_ZONES } from "@/lib/generation/offline/knowledge/sentences";
import { zonePassage } from "@/lib/ingestion/zones";
import { contentWords, stem } from "@/lib/text/tokenize";
import type { IForm } from "./common";
import { mcq } from "./common";

/**
 * The book's own questions as attributed fillers: an MCQ from a passage's "book_question" zone
 * (Visual Connection, Review Questions, Exercises …) is offered only when it is complete — a stem,
 * four options and a key the book states ("Answer: (b)") — and the key is also stated in the
 * selected passages' own lesson text. The question keeps the book's wording and option order and
 * says whose it is ("From the textbook (Visual Connection, 10.3): …"). Its level is the slot's,
 * so the quality gate's demand reading decides where it may stand. Neither eval corpus carries
 * answer keys, so there they are never used.
 */
export interface IBookMcq {
  stem: string;
  options: string[];
  correctIndex: number;
  /** The box or heading the question sits under ("Visual Connection"). */
  box: string;
  /** The section number from the passage's path ("10.3"), or "". */
  section: string;
  chunkKey: string;
  /** The lesson sentence of the selection that states the key. */
  support: { chunkKey: string; quote: string };
}

const OPTION = /^\s*(?:\(?([a-dA-D])[.)]|\(?([1-4])[.)])\s+(.+?)\s*$/;
const ANSWER = /^\s*(?:answer|ans\.?|correct answer|key)\s*[:.–-]?\s*\(?([a-dA-D1-4])\)?\s*\.?\s*$/i;

/** Complete MCQs (stem, four options, a stated key) in a stretch of book-question text. */
export function parseBookMcqs(text: string): { stem: string; options: string[]; correctIndex: number }[] {
  const lines = text.split("\n").map((l) => l.trim());
  const out: { stem: string; options: string[]; correctIndex: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const stemLine = lines[i]!.replace(/^\d+\.\s+/, "");
    if (!/\?$/.test(stemLine)) continue;
    const options: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j] === "") j++;
    while (j < lines.length && options.length < 5) {
      const m = OPTION.exec(lines[j]!);
      if (!m) break;
      options.push(m[3]!);
      j++;
    }
    if (options.length !== 4) continue;
    while (j < lines.length && lines[j] === "") j++;
    const key = ANSWER.exec(lines[j] ?? "")?.[1];
    if (!key) continue;
    const correctIndex = /[a-d]/i.test(key) ? key.toLowerCase().charCodeAt(0) - 97 : Number(key) - 1;
    out.push({ stem: stemLine, options, correctIndex });
    i = j;
  }
  return out;
}

const stems = (s: string) => new Set(contentWords(s).map(stem));

/** The book's complete MCQs in the selected passages whose key a lesson sentence of the selection states. */
export function bookMcqs(kb: IKnowledge): IBookMcq[] {
  const own = new Set(kb.sentences.map((s) => s.chunkKey));
  const lesson = kb.sentences.filter((s) => s.standalone && !s.sideBox);
  const out: IBookMcq[] = [];
  for (const chunk of kb.chunks) {
    const key = chunkKey(chunk);
    if (!own.has(key)) continue;
    const spans =
      chunk.zoneSpans && chunk.zoneSpans.length > 0
        ? chunk.zoneSpans
        : zonePassage(chunk.content, chunk.sectionPath).spans;
    for (const [n, [start, first, zone]] of spans.entries()) {
      if (zone !== "book_question") continue;
      // Its options and key may sit in the box's next runs (numbered lines read as a list).
      let end = first;
      for (const [s2, e2, z2] of spans.slice(n + 1)) {
        if (chunk.content.slice(end, s2).trim() !== "" || QUESTION_WORTHY_ZONES.has(z2)) break;
        end = e2;
      }
      const before = chunk.content.slice(0, start);
      const box = [...before.matchAll(/^#+\s*(.+?)\s*$/gm)].at(-1)?.[1] ?? "Questions";
      const section = /(?:^|> )(\d+\.\d+)\b/.exec(chunk.sectionPath ?? "")?.[1] ?? "";
      for (const q of parseBookMcqs(chunk.content.slice(start, end))) {
        const stated = (option: string) => {
          const os = stems(option);
          return os.size > 0 ? lesson.find((s) => [...os].every((w) => stems(s.text).has(w))) : undefined;
        };
        const support = stated(q.options[q.correctIndex]!);
        // A distractor the lesson states as well would make the key uncertain.
        const rival = q.options.some((o, i) => i !== q.correctIndex && stated(o));
        if (support && !rival)
          out.push({
            ...q,
            box,
            section,
            chunkKey: key,
            support: { chunkKey: support.chunkKey, quote: support.text },
          });
      }
    }
  }
  return out;
}

const cache = new WeakMap<IKnowledge, IBookMcq[]>();
const bookOf = (kb: IKnowledge) => {
  let hit = cache.get(kb);
  if (!hit) {
    hit = bookMcqs(kb);
    cache.set(kb, hit);
  }
  return hit;
};

const LETTER = ["A", "B", "C", "D"];

export const bookQuestion: IForm = {
  id: "book-question",
  // No MCQ demands Create; at the other levels the gate's demand reading decides.
  fits: (type, level) => type === "mcq" && level !== "Create",
  available: (kb) => bookOf(kb).length,
  *build(env) {
    for (const b of bookOf(env.kb)) {
      if (env.used.has(b.stem)) continue;
      const key = b.options[b.correctIndex]!;
      const q = mcq(env, {
        prompt: `From the textbook (${b.box}${b.section ? `, ${b.section}` : ""}): ${b.stem}`,
        key: { text: key },
        distractors: [],
        explanation: `The book's answer is ${LETTER[b.correctIndex]}; the lesson states it: “${b.support.quote}”`,
        sources: [
          { chunkKey: b.chunkKey, quote: b.stem },
          { chunkKey: b.support.chunkKey, quote: b.support.quote },
        ],
        fixed: {
          options: b.options,
          keyIndex: b.correctIndex,
          rationales: b.options
            .map((o, i) => ({ o, i }))
            .filter(({ i }) => i !== b.correctIndex)
            .map(
              ({ o, i }) =>
                `Option ${LETTER[i]} (${o.slice(0, 60)}) is not what the lesson states; the book's key is ${LETTER[b.correctIndex]}.`,
            ),
        },
      });
      if (q) yield q;
    }
  },
};
