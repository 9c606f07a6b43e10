import { contentWords } from "@/lib/text/tokenize";
import type { EPlanStrategy, IQueryClassification } from "@/types/retrieval.types";
import { type IExamQuestion, readExamQuestion } from "./exam";
import { decompose, splitMcqOptions } from "./variants";

/**
 * The query planner: per query, from the classifier (and, later in the pipeline, the first
 * search), how to search. It decides before anything runs:
 *
 * - **decompose**: a comparison, a multi-part stem or several questions in one become sub-queries,
 *   each its own probe beside the whole query;
 * - **MCQ options**: a pasted multiple-choice question is searched by its stem, and each option
 *   (with the stem's topic) as a further probe;
 * - **multi-query**: phrasings from the language model or the client (the enhancer's variants);
 * - **HyDE**: a hypothetical answer passage, searched by meaning beside the query (the model's, or
 *   offline one assembled from the first results' key sentences; offline, not for term lookups or
 *   exam stems);
 * - **chapter focus**: for exam-style questions, the rest of the chapter the first results agree on.
 *
 * Optional probes run only while the request is inside its latency budget; any failure of an
 * optional step falls back to what the single query found. The decisions are data (IQueryPlan),
 * returned to the caller and logged.
 */

export interface IPlanSwitches {
  /** false: the single query only (the planner's own ablation). */
  planner: boolean;
  variants: boolean;
  hyde: boolean;
  focus: boolean;
  /** Offline HyDE for term lookups and exam stems too (an ablation: off in production). */
  hydeLookups?: boolean;
  /** Read a pasted exam question (exam.ts): scaffolding out, quantities in (default on). */
  exam?: boolean;
  /** A language model is configured for variants and the hypothetical passage. */
  llm: boolean;
}

export interface IQueryPlan {
  /** Headline of the plan (the most involved step it takes). */
  strategy: EPlanStrategy;
  /** The text of the main probe (MCQ options removed). */
  mainText: string;
  subQueries: string[];
  options: string[];
  /** Phrasings from the client (the enhancer's variants). */
  clientVariants: string[];
  /** The session's previous query, searched beside a follow-up (set by the caller). */
  contextText?: string;
  /** Ask the language model for variants and a hypothetical passage. */
  llm: boolean;
  hyde: boolean;
  chapterFocus: boolean;
  /** Exam-style: a question form (?, blanks, a trailing colon) or a stem the classifier read as general. */
  examStyle: boolean;
  /** The pasted exam question as read (null: not read as one, or the reading is switched off). */
  exam: IExamQuestion | null;
  reasons: string[];
}

/** Long enough to be a question rather than a term. */
const EXAM_MIN_WORDS = 8;

/** A question as set in an exam: asks (?), leaves a blank, or ends on a colon, and is not a term lookup. */
export function isExamStyle(query: string, classification: IQueryClassification): boolean {
  if (classification.type === "lookup" || classification.type === "generate") return false;
  if (classification.type === "general" || classification.type === "compare") return true;
  const q = query.trim();
  return /\?$|_{2,}|:$/.test(q) && q.split(/\s+/).length >= EXAM_MIN_WORDS;
}

export interface IPlanInput {
  query: string;
  classification: IQueryClassification;
  clientVariants?: readonly string[];
  switches: IPlanSwitches;
}

/** Decide the plan from the query and its classification (pure; the first search refines nothing here). */
export function planQuery(input: IPlanInput): IQueryPlan {
  const { query, classification, switches } = input;
  const searchText = classification.searchText || query;
  const single: IQueryPlan = {
    strategy: "single",
    mainText: searchText,
    subQueries: [],
    options: [],
    clientVariants: [],
    llm: false,
    hyde: false,
    chapterFocus: false,
    examStyle: false,
    exam: null,
    reasons: [],
  };
  if (!switches.planner) return { ...single, reasons: ["planner off: the query as classified"] };

  const reasons: string[] = [];
  const mcq = splitMcqOptions(query);
  const read = switches.exam !== false && classification.type !== "generate" ? readExamQuestion(query) : null;
  const exam = read && readsAsExam(classification, read) ? read : null;
  const mainText = exam ? examSearchText(exam) : mcq ? searchTextOfStem(mcq.stem, searchText) : searchText;
  if (exam)
    reasons.push(
      `exam question (${exam.cues.join(", ")}): searched by the stem's content words${exam.quantities.length ? ` and the quantities ${exam.quantities.join(", ")}` : ""}`,
    );
  if (mcq)
    reasons.push(
      `multiple-choice question: searched by its stem, each of ${mcq.options.length} options as a probe`,
    );
  const subQueries = switches.variants ? decompose(mcq?.stem ?? query, classification) : [];
  if (subQueries.length)
    reasons.push(`asks ${subQueries.length} things at once: each is also searched on its own`);
  // Phrasings that repeat the query add nothing; the rest, up to three, become probes.
  const same = new Set([query.trim().toLowerCase(), mainText.trim().toLowerCase()]);
  const clientVariants = switches.variants
    ? [...new Set((input.clientVariants ?? []).map((v) => v.trim()))]
        .filter((v) => contentWords(v).length > 0 && !same.has(v.toLowerCase()))
        .slice(0, 3)
    : [];
  if (clientVariants.length)
    reasons.push(`${clientVariants.length} phrasing(s) from the enhancer searched beside the query`);
  const llm = switches.llm && (switches.variants || switches.hyde);
  if (llm)
    reasons.push("language model asked for phrasings and a hypothetical answer passage (offline fallback)");
  // A question read as set in an exam (options, numbering, marks, "which of the following", a
  // blank, numbers with units) is exam-style too, whatever the classifier's type.
  const examStyle = isExamStyle(query, classification) || (exam?.cues.some((c) => c !== "question") ?? false);
  // Offline HyDE is for explanations, procedures and requests: around a named term, or an exam
  // stem (whose chapter focus below does more for it), it cost Recall@8 on the open set and time
  // on every request (README, "Query planner").
  const hyde =
    switches.hyde && ((classification.type !== "lookup" && !examStyle) || switches.hydeLookups === true);
  if (hyde && !switches.llm)
    reasons.push("hypothetical passage from the first results' key sentences, searched by meaning");
  const chapterFocus = switches.focus && examStyle && !classification.broad;
  if (chapterFocus) reasons.push("exam-style question: the chapter the first results agree on is filled in");

  const options = switches.variants && mcq ? mcq.options : [];
  const strategy: EPlanStrategy =
    subQueries.length > 0
      ? "decompose"
      : options.length || clientVariants.length || llm
        ? "multi-query"
        : hyde
          ? "hyde"
          : "single";
  return {
    strategy,
    mainText,
    subQueries,
    options,
    clientVariants,
    llm,
    hyde,
    chapterFocus,
    examStyle,
    exam,
    reasons,
  };
}

/**
 * Term lookups and generation requests keep the classifier's reading, except a lookup that is set
 * as an exam task ("List some ways seeds are dispersed.", a scenario ending "…describe its shape."):
 * a command word in a punctuated sentence is a question to answer, not a term to define.
 */
function readsAsExam(classification: IQueryClassification, exam: IExamQuestion): boolean {
  if (classification.type === "generate") return false;
  return classification.type !== "lookup" || exam.cues.includes("task");
}

/**
 * The main probe of an exam question: the stem's content words, then the quantities it does not
 * name, then the words its options agree on.
 */
export function examSearchText(exam: IExamQuestion): string {
  const words: string[] = [];
  for (const w of [...exam.focusWords, ...exam.quantities, ...exam.agreedWords])
    if (!words.includes(w)) words.push(w);
  return words.join(" ");
}

/** The stem without its options, with the classifier's scaffolding removed when it applied to the whole. */
function searchTextOfStem(stem: string, classifiedText: string): string {
  const stemWords = new Set(contentWords(stem));
  const kept = contentWords(classifiedText).filter((w) => stemWords.has(w));
  return kept.length >= Math.min(3, stemWords.size) ? kept.join(" ") : stem;
}
