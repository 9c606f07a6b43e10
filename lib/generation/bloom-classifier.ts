import type { EBloomLevel } from "@/types/bloom.types";

/**
 * Bloom level of a question from its wording: the command verb and the construct
 * ("which term…", "best explains", "illustrates", "effect of", "best supported", "design").
 * Quoted source text is ignored, so a definition that happens to contain "use" or "design"
 * does not change the level. Higher levels are checked first: "Explain and evaluate…" is Evaluate.
 */
const CUES: [EBloomLevel, RegExp][] = [
  [
    "Create",
    /\b(design|devise|propose|plan (?:an?|the)|formulate|construct|invent|compose|create|develop (?:an?|a new)|which (?:investigation|experiment(?:al design)?|model)\b.*\b(?:test|demonstrate)|write a (?:plan|proposal))\b/i,
  ],
  [
    "Evaluate",
    /\b(evaluate|justify|assess|judge|critique|defend|argue|recommend|best supported|most (?:valid|justified|convincing)|which claim|do you agree|to what extent|weigh)\b/i,
  ],
  [
    "Analyze",
    /\b(compare|contrast|distinguish|differentiate|analy[sz]e|examine|categori[sz]e|relationship between|most direct (?:effect|cause)|(?:effect|consequence|cause|result) of|why (?:does|do|is|are|would|might)|what would happen|differ(?:s|ence)?\b)/i,
  ],
  [
    "Apply",
    /\b(apply|calculate|solve|compute|determine the value|use (?:the|this|your)|demonstrate how|illustrates?|example of|give an example|situation|scenario|predict|a student observes|how would you)\b/i,
  ],
  [
    "Understand",
    /\b(explain|describe|summari[sz]e|discuss|interpret|paraphrase|classify|best explains|in your own words|what happens|how does|how do|outline|why)\b/i,
  ],
  [
    "Remember",
    /\b(define|list|name|state|identify|recall|label|which term|what term|fill in the blank|what is|what are|who|when|where|which of the following is)\b|_{3,}/i,
  ],
];

export function stripQuoted(text: string): string {
  return text.replace(/“[^”]*”|"[^"]*"|‘[^’]*’/g, " ");
}

export function classifyBloom(question: string): EBloomLevel {
  const text = stripQuoted(question);
  for (const [level, re] of CUES) if (re.test(text)) return level;
  return "Remember";
}
