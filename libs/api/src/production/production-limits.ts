/** What the SPS endpoint accepts (the spec's http section). */
export interface ProductionLimits {
  /** Largest archive, compressed: 413 above it (multipart uploads are cut at it while streaming). */
  maxArchiveBytes: number;
  /** The answer deadline (spec admission.answerDeadlineS, ms): how far back a proxy's X-Request-Start is believed. Unset: no deadline. */
  answerBudgetMs?: number;
}
export const PRODUCTION_LIMITS = Symbol('ProductionLimits');
