import type { EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType, IContextChunk, ISlot, TQuestion } from "@/types/generation.types";
import { availability, formsFor } from "./forms";
import { mulberry32 } from "./forms/common";
import { buildKnowledge, type IKnowledge } from "./knowledge";

/**
 * The offline question generator: question forms an algorithm can do well, one or more per Bloom
 * level (definitions and reversed statements to recall; explaining a stated cause and telling
 * sibling terms apart; numeric problems, proportions and predictions from stated relations;
 * assertion–reason across two statements; a plausible student claim to judge; a fair test to
 * plan), each drawn only from the kind of statement it suits and labelled with the level its
 * demand really has. It proposes
 * candidates; the quality gate (`./gate`) decides, exactly as for a language model's drafts.
 */
export interface IOfflineCandidate {
  form: string;
  question: TQuestion;
}

export interface IOfflineGenerator {
  readonly kb: IKnowledge;
  /** How much material the passages hold for this type and level (0: nothing to build from). */
  available(type: EQuestionType, level: EBloomLevel): number;
  /** Candidate questions for the slot, best first (`random`: a stream of the caller's, not the generator's). */
  candidates(
    slot: ISlot,
    opts: { used: ReadonlySet<string>; keyAt: number; random?: () => number },
  ): Iterable<IOfflineCandidate>;
}

/**
 * @param chunks the selected passages: questions are built from and cite only these.
 * @param scope the chapter(s) the passages come from: a source of wrong options only.
 */
export function createOfflineGenerator(
  chunks: readonly IContextChunk[],
  seed = 1,
  scope: readonly IContextChunk[] = [],
  topic?: ReadonlySet<string>,
): IOfflineGenerator {
  const kb = buildKnowledge(chunks, scope, topic);
  const random = mulberry32(seed);
  return {
    kb,
    available: (type, level) => availability(kb, type, level),
    *candidates(slot, { used, keyAt, random: own }) {
      for (const form of formsFor(slot.type, slot.bloomLevel)) {
        for (const question of form.build({ kb, slot, random: own ?? random, keyAt, used }))
          yield { form: form.id, question };
      }
    },
  };
}
