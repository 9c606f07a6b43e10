/**
 * The shared value lists the request and response schemas are built from. They live here, not in
 * types/, so schema/ never imports a value from types/ (types/ derives its E- and T-prefixed unions from these
 * with `typeof`, and imports schema/ for the z.infer shapes): no schema↔types import circle.
 */

/** What a personal API token may do (see SCOPE_IMPLIES in types/auth.types.ts). */
export const API_SCOPES = [
  "retrieval:read",
  "resources:read",
  "resources:write",
  "questions:read",
  "generation:write",
  "papers:read",
  "papers:write",
] as const;

export const QUESTION_TYPES = ["mcq", "short", "long"] as const;

export const DIFFICULTIES = ["easy", "medium", "hard"] as const;

export const STRATEGIES = ["grounded", "few-shot", "cot", "self-consistency"] as const;

export const PAPER_TEMPLATES = ["board-80", "unit-test-20", "blank"] as const;

export const EXPORT_FORMATS = ["pdf", "docx", "md", "gift", "qti", "moodle"] as const;

export const EXPORT_PARTS = ["paper", "answer-key"] as const;

/** The three-band cognitive mix used by board blueprints (e.g. CBSE 2024+ papers). */
export const BLOOM_BANDS = ["Remember+Understand", "Apply", "Analyze+Evaluate+Create"] as const;
