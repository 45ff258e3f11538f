// Types of the pure k6 module paper-metrics.js, for the runner's unit tests.
export function efrFromRacFr(rac: number, fr: number): number;
export function paperMetrics(metrics: Record<string, unknown>, durationS: number, holdS: number, requestTypes: string[], stage?: 'ramp' | 'hold' | null): import('../../benchmarks/src/types').PaperMetrics;
