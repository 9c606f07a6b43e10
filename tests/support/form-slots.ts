import type { EBloomLevel } from "@/types/bloom.types";
import type { ISlot } from "@/types/generation.types";

/**
 * A blueprint slot for a form's unit test: one question of `type` at `bloomLevel`, with the marks
 * the planner gives that type (MCQ 1, short 3, long 5), drawn from the first chunk of `documentId`.
 */
export const formSlot = (documentId: string, type: "mcq" | "short" | "long", bloomLevel: EBloomLevel) => ({
  id: "s0",
  index: 0,
  type,
  bloomLevel,
  marks: type === "mcq" ? 1 : type === "short" ? 3 : 5,
  difficulty: "medium" as const,
  sourceKeys: [`${documentId}:0`],
});

/** A Remember MCQ slot with no source passage of its own: a form reads every passage it is given. */
export const rememberMcqSlot: ISlot = {
  id: "s",
  index: 0,
  type: "mcq",
  bloomLevel: "Remember",
  marks: 1,
  difficulty: "medium",
} as ISlot;
