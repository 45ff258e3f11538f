export interface ProductionLimits {
  maxArchiveBytes: number;
}
export const PRODUCTION_LIMITS = Symbol('ProductionLimits');
