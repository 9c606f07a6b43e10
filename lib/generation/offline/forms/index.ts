import type { IKnowledge } from "@/lib/generation/offline/knowledge";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType } from "@/types/generation.types";
import { mixedDefinition } from "./bio-claims";
import { swapClaim } from "./bio-contrast";
import { bookQuestion } from "./book";
import { classifySort, classifyWritten } from "./classify";
import type { IForm } from "./common";
import { equationClaim, equationData, equationProblem } from "./equations";
import { predictEffect } from "./higher-effects";
import { equationPlan } from "./higher-equation-plan";
import { designInvestigation } from "./higher-investigation";
import { equationChoice, equationScaling } from "./mcq-equations";
import { exampleMcq } from "./mcq-examples";
import { unitMcq } from "./mcq-units";
import { compareTerms, contrastSiblings, judgeClaim, nameAndDescribe } from "./reasoning";
import { definesMcq, definitionMcq } from "./recall";
import { functionMcq } from "./recall-functions";
import { lawMcq, stateLaw } from "./recall-laws";
import { assertionReason, numericProblem, predictChange, proportionRule } from "./relations";
import { sequenceBreak, sequenceOrder, sequenceWritten } from "./sequence";
import { spotTheError, statementMcq } from "./statements";
import { judgeRelation } from "./written-claim";
import { compareSiblings } from "./written-compare";
import { explainDifference, judgeGeneralisation } from "./written-contrast";
import { judgeException } from "./written-exception";
import { interpretEquation } from "./written-interpret";

export type { IForm, IFormEnv } from "./common";

/**
 * Every offline question form, in order of preference where several fit a slot. Dropped after
 * graded readings: "Define X and state one further fact" (9 of 9 rejected), cloze MCQs (15 of 21
 * rejected: tautologies, a second right option, wrong-kind options) and "… is NOT correct?"
 * reversals (some stayed true).
 */
export const FORMS: readonly IForm[] = [
  // Remember
  definesMcq,
  definitionMcq,
  statementMcq,
  // "Which of the following synthesize proteins?": a stated function, siblings as options.
  functionMcq,
  unitMcq,
  lawMcq,
  equationChoice,
  spotTheError,
  stateLaw,
  nameAndDescribe,
  // "A student writes …: is the student right?" with two facts swapped or a kin term's description:
  // labelled Evaluate until round 10; blind readers in rounds 9 and 10 read them as recall of
  // which fact belongs where (Remember, at times Understand), so they are Remember.
  swapClaim,
  mixedDefinition,
  // Understand
  // Not `explainWhyMcq` ("Which statement best explains why …?", wave 14): its wrong options were
  // causes the text gives for other effects (true, but plainly about something else) and its key
  // the passage's own sentence; the first blind reading rejected it at 2 of 2 readings.
  // "Which of the following is (NOT) an example of X?" from a group stated with its members and
  // another group of the same kind (exemplifying and classifying are Understand in the rubric).
  exampleMcq,
  // Sorting stated items into two stated groups: labelled Analyze until round 12 (never read,
  // never written); the rubric puts classifying at Understand.
  classifySort,
  // Not `restateProportion`: the stem quotes the stated proportion and the key restates it (round 8
  // readers rejected 2 of 2 at 4 of 4 readings: "the answer is already in the stem").
  // Not `statedReason`: A and R cut from one "because" sentence (readers: read as recall, key always A).
  // Not `explainWhy`, `explainMechanism` nor `explainFunction` (written "Explain why / how / the
  // role of …"): blind readers rejected every one they read in rounds 9–11 (20 of 20 readings: the
  // model answer and scheme restate the passage's sentence, stems are lifted fragments).
  contrastSiblings,
  compareTerms,
  // Two siblings of a kind the text names (a list, a shared head, a shared genus), one stated feature each.
  compareSiblings,
  // Two counterparts the text contrasts, told apart with one more sentence on one of them.
  explainDifference,
  // A stated equation put into words: each factor's dependence with the others fixed (interpreting).
  interpretEquation,
  sequenceOrder,
  // A stated proportion used once ("the current is doubled: the power …"): labelled Apply until
  // round 10, whose readers read it as Understand.
  proportionRule,
  // Apply
  numericProblem,
  equationProblem,
  // Two quantities scaled by factors: labelled Analyze until round 10; readers read it as Apply.
  equationScaling,
  predictChange,
  predictEffect,
  // Analyze
  equationData,
  assertionReason,
  sequenceBreak,
  classifyWritten,
  sequenceWritten,
  // Evaluate
  equationClaim,
  judgeClaim,
  judgeRelation,
  // An over-general claim ("All conducting cells are alive") judged with the stated counterexample.
  judgeGeneralisation,
  // "Most X …" claimed of all X, judged with the exception the next sentence states.
  judgeException,
  // Create
  designInvestigation,
  equationPlan,
  // Any level the gate reads it at: the book's own keyed MCQs, after the forms above.
  bookQuestion,
];

export const formsFor = (type: EQuestionType, level: EBloomLevel) => FORMS.filter((f) => f.fits(type, level));

/** How much material the passages hold for a (type, level): 0 means no form can even start. */
export function availability(kb: IKnowledge, type: EQuestionType, level: EBloomLevel): number {
  return formsFor(type, level).reduce((n, f) => n + f.available(kb), 0);
}

/** What a level needs from the passages, for the message of a slot left empty. */
export const LEVEL_NEEDS: Record<EBloomLevel, string> = {
  Remember:
    "defined term with three related terms of the same kind, statements with a direction word to reverse, or two things stated in contrast (“whereas”)",
  Understand:
    "two sibling terms that are both described, two things stated in contrast, a stated equation or proportion, a group stated with its members, or steps in a stated order",
  Apply:
    "worked example with an equation and values, stated relationship (as one quantity changes, another follows), or a thing's stated effect on a quantity or process (“X stimulates Y”)",
  Analyze:
    "cause and consequence stated in separate sentences, a stated cause with a defined term on the same topic, a process stated as ordered steps, or two groups stated with their members",
  Evaluate:
    "stated relationship, cause or qualified statement (“most”, “usually”) a plausible claim can get wrong",
  Create: "stated relation between two measurable quantities that a fair test could check",
};

/** What the selected passages can support for one question type and level, before generating. */
export interface ISupport {
  type: EQuestionType;
  level: EBloomLevel;
  /** Pieces of material the forms for this slot could build from (0: none). */
  count: number;
  /** Why 0, in the teacher's terms; empty when there is material. */
  reason: string;
  /** The same count with the rest of the passages' section ("Also use the rest of the section"). */
  withSection?: number;
}

/** A cheap reading of the passages per question type and Bloom level (no question is built). */
export function supportTable(kb: IKnowledge): ISupport[] {
  const types: EQuestionType[] = ["mcq", "short", "long"];
  return types.flatMap((type) =>
    BLOOM_LEVELS.map((level) => {
      const count = availability(kb, type, level);
      return {
        type,
        level,
        count,
        reason:
          count > 0
            ? ""
            : formsFor(type, level).length === 0
              ? NO_FORM(type, level)
              : `no ${LEVEL_NEEDS[level]}`,
      };
    }),
  );
}

const NO_FORM = (type: EQuestionType, level: EBloomLevel) =>
  `the offline generator has no ${type === "mcq" ? "MCQ" : `${type}-answer`} form at ${level}`;
