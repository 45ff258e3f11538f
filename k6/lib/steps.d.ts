// Types of the pure k6 module steps.js, for the runner (benchmarks/src/suites) and its tests.
export interface Step {
  rate: number;
  holdS: number;
}
// A step as scheduled: one definition, here beside stepSchedule that makes it (the runner reads the
// schedule back from k6's summary and imports this type).
export interface ScheduledStep {
  index: number;
  rate: number;
  fromS: number;
  holdFromS: number;
  toS: number;
}
export const SUITE_KINDS: ('load' | 'soak' | 'stress' | 'spike')[];
export function checkSteps(steps: Step[]): Step[];
export function stepSchedule(steps: Step[], transitionS: number): ScheduledStep[];
export function stepStages(steps: Step[], transitionS: number, tick: number): { target: number; duration: string }[];
export function stepIndexAt(elapsedS: number, schedule: ScheduledStep[]): number;
export function scheduleS(schedule: ScheduledStep[]): number;
