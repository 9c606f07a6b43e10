export const RESOURCE_TYPES = ["textbook", "pyq", "notes", "other"] as const;
export type EResourceType = (typeof RESOURCE_TYPES)[number];

export const VISIBILITIES = ["shared", "private"] as const;
export type EVisibility = (typeof VISIBILITIES)[number];

export const ROLES = ["teacher", "admin"] as const;
export type ERole = (typeof ROLES)[number];

export const INGESTION_STATUSES = [
  "queued",
  "extracting",
  "chunking",
  "embedding",
  "storing",
  "ready",
  "failed",
] as const;
export type EIngestionStatus = (typeof INGESTION_STATUSES)[number];

/** The scope a teacher picks: Board → Class (grade) → Subject, optionally narrowed. */
export interface ICurriculumScope {
  board: string;
  grade: string;
  subject: string;
}
