export const BLOOM_LEVELS = ["Remember", "Understand", "Apply", "Analyze", "Evaluate", "Create"] as const;
export type EBloomLevel = (typeof BLOOM_LEVELS)[number];

export const BLOOM_DESCRIPTIONS: Record<EBloomLevel, { definition: string; verbs: string[] }> = {
  Remember: {
    definition: "Recall facts and basic concepts.",
    verbs: ["define", "list", "name", "identify", "state", "recall", "label", "recognise"],
  },
  Understand: {
    definition: "Explain ideas or concepts in one's own words.",
    verbs: ["explain", "describe", "summarise", "discuss", "classify", "interpret", "illustrate"],
  },
  Apply: {
    definition: "Use information in new situations.",
    verbs: ["apply", "calculate", "solve", "use", "demonstrate", "predict", "compute"],
  },
  Analyze: {
    definition: "Draw connections among ideas; break into parts.",
    verbs: ["compare", "contrast", "distinguish", "differentiate", "examine", "relate", "analyse"],
  },
  Evaluate: {
    definition: "Justify a stand or decision using criteria.",
    verbs: ["evaluate", "justify", "assess", "argue", "defend", "critique", "judge"],
  },
  Create: {
    definition: "Produce new or original work.",
    verbs: ["design", "create", "propose", "formulate", "devise", "construct", "plan"],
  },
};
