// Types of the pure k6 module mix.js, for the runner (benchmarks/src/mix) and its tests.
// A step of the mix as scheduled (mixSchedule makes it; the runner's analysis reads it).
export interface MixScheduleStep {
  index: number;
  p: number;
  vus: number;
  fromS: number;
  holdFromS: number;
  toS: number;
}

export interface MixInput {
  ps: number[];
  vus: number;
  rampS: number;
  holdS: number;
}
export const MIX_PATTERNS: ('aggregation' | 'offloading' | 'pipeline')[];
export const MIX_TYPES: ('r1' | 'r2')[];
export function checkMix<T extends MixInput>(mix: T): T;
export function mixSchedule(mix: MixInput, gapS: number): MixScheduleStep[];
export function mixScenarios(schedule: MixScheduleStep[], mix: MixInput, gapS: number): Record<string, { executor: string; startTime: string; tags: Record<string, string> }>;
export function pickType(p: number, u: number): 'r1' | 'r2';
export function mixThresholds(schedule: MixScheduleStep[]): Record<string, string[]>;
