// Types of the pure k6 module outcome.js, for the runner's unit tests.
export const KO_CAUSES: string[];
export const ITERATION_KO_CAUSES: string[];
export function classify(status: number, expected: number[], errorCode: number, ms: number, timeoutMs?: number): { outcome: 'ok' | 'ko'; cause: string | null };
export function spsOkStatuses(reply: 'sync' | 'async'): number[];
export function apdexZone(outcome: 'ok' | 'ko', ms: number, tMs: number, fMs: number): 'satisfied' | 'tolerating' | 'frustrated';
export function stageOf(nowMs: number, startMs: number, rampS: number): 'ramp' | 'hold';
