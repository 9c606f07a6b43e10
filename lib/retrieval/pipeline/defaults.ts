/**
 * Production defaults of the retrieval stages. Each was chosen on the open eval's even-numbered
 * queries and confirmed on the odd ones; the measured effect of each is in the README's
 * "Retrieval quality" section (not here, where it would go stale).
 */

/** Weight of the document-level smoothing stage (see coherence.ts). */
export const DEFAULT_COHERENCE = 0.5;
/** Passages smoothing keeps in place, so a lone, clearly best match is never buried. */
export const DEFAULT_COHERENCE_PROTECT = 8;
/**
 * The SQL returns `fanout × DEFAULT_POOL_FACTOR` candidates; the reranker scores the top `fanout`
 * and the rest keep their fused order below them. With a pool of exactly `fanout`, document
 * smoothing had little to pull up: the other passages of a chapter with several strong matches
 * (an exam question's answer and the sections around it) were often just below the cut.
 */
export const DEFAULT_POOL_FACTOR = 3;
/**
 * Every query's results are spread over sections (MMR on rank, see diversify.ts): a second
 * passage of the same section adds context but no new source, so it yields to the next section's
 * best passage unless it ranks clearly higher. Chapter-wide requests keep their own score-based MMR.
 */
export const DEFAULT_SECTION_SPREAD_LAMBDA = 0.5;
/** Score of a neighbour pulled in by adjacent expansion, relative to its anchor. */
export const NEIGHBOUR_DISCOUNT = 0.9;
/** The corrective pass searches this many times as many candidates. */
export const RETRY_POOL_MULTIPLIER = 2;
/** …and moves α this far toward the middle. */
export const RETRY_ALPHA_SHIFT = 0.2;
