import type { IKnowledge } from "@/lib/generation/knowledge";
import type { EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType } from "@/types/generation.types";
import type { IForm } from "./common";
import {
  compareTerms,
  contrastSiblings,
  designInvestigation,
  judgeClaim,
  nameAndDescribe,
} from "./reasoning";
import { calledCloze, conceptCloze, defineWritten, definitionMcq } from "./recall";
import { assertionReason, numericProblem, predictChange } from "./relations";
import { spotTheError, statementMcq } from "./statements";

export type { IForm, IFormEnv } from "./common";

/** Every offline question form, in order of preference where several fit a slot. */
export const FORMS: readonly IForm[] = [
  definitionMcq,
  calledCloze,
  conceptCloze,
  statementMcq,
  defineWritten,
  numericProblem,
  predictChange,
  assertionReason,
  compareTerms,
  contrastSiblings,
  nameAndDescribe,
  spotTheError,
  judgeClaim,
  designInvestigation,
];

export const formsFor = (type: EQuestionType, level: EBloomLevel) => FORMS.filter((f) => f.fits(type, level));

/** How much material the passages hold for a (type, level): 0 means no form can even start. */
export function availability(kb: IKnowledge, type: EQuestionType, level: EBloomLevel): number {
  return formsFor(type, level).reduce((n, f) => n + f.available(kb), 0);
}

/** What a level needs from the passages, for the message of a slot left empty. */
export const LEVEL_NEEDS: Record<EBloomLevel, string> = {
  Remember: "defined or named term with three related terms of the same kind for the options",
  Understand: "cause–effect statement or process to explain",
  Apply:
    "worked example, equation with values or stated relationship (as one quantity changes, another follows)",
  Analyze: "cause–effect statement or pair of related terms that are both described",
  Evaluate: "stated relationship or cause that a plausible misconception can be built on",
  Create: "relationship between two quantities that an investigation could test",
};
