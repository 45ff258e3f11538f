// Types of the pure k6 module config.js, for the runner's tests (benchmarks/test/findings/pricing.spec.ts).
export interface K6Config {
  peak: number;
  rampS: number;
  holdS: number;
  pauseS: number;
  timeoutS: number;
  arrivals: 'even' | 'exponential';
  oversample: number;
  honourRetryAfter: boolean;
  /** Whose client plays the users (k6/lib/scenario-r.js or scenario-original.js). */
  client: 'r' | 'original';
  /** Seconds without a request before the load starts (sps.js setup). */
  quietS: number;
}
export interface K6Scenario {
  preAllocatedVUs: number;
  maxVUs: number;
  gracefulStop: string;
  startRate: number;
  /** k6's timeUnit: '1s', or '10s' / '100s' for a rate with tenths / hundredths. */
  timeUnit: string;
  stages: { target: number; duration: string }[];
}
export function loadConfig(options: Record<string, unknown>, profiles: Record<string, unknown>): K6Config;
export function scenarioOptions(cfg: K6Config): K6Scenario;
export function iterationsScheduled(startRate: number, stages: { target: number; duration: string }[], unitS?: number): number;
export const MIN_RATE: number;
export function rateUnitS(rate: number): number;
