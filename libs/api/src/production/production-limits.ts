/** What the SPS endpoint accepts (the spec's http section). */
export interface ProductionLimits {
  /** Largest archive, compressed: 413 above it. */
  maxArchiveBytes: number;
  /** Largest multipart upload the parser reads (the JSON body limit is the HTTP app's). */
  maxBodyBytes: number;
}
export const PRODUCTION_LIMITS = Symbol('ProductionLimits');
