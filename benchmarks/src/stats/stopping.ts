// The adaptive stopping rule of one comparison: more runs of both sides until the 95% interval
// of B − A is narrow enough to decide — half-width ≤ `precision` × the baseline's median — or
// the stated maximum is reached. Never before `minRuns` on each side.
import { median } from 'simple-statistics';
import { difference } from '@shellgrade/stats';

export interface StoppingRule {
  minRuns: number;
  maxRuns: number;
  /** Target half-width as a share of A's median (0.1: ±10 %). */
  precision: number;
}

export const DEFAULT_STOPPING: StoppingRule = { minRuns: 3, maxRuns: 10, precision: 0.1 };

export interface StoppingState {
  stop: boolean;
  reason: 'precise' | 'maximum' | 'too few runs' | 'too wide';
  halfWidth: number | null;
  target: number | null;
  nA: number;
  nB: number;
}

export function stoppingState(a: readonly number[], b: readonly number[], rule: StoppingRule = DEFAULT_STOPPING): StoppingState {
  const n = Math.min(a.length, b.length);
  const base = { nA: a.length, nB: b.length };
  const target = a.length ? rule.precision * Math.abs(median([...a])) : null;
  const d = difference(a, b);
  const halfWidth = d.lo !== null && d.hi !== null ? (d.hi - d.lo) / 2 : null;
  if (n >= rule.maxRuns) return { ...base, stop: true, reason: 'maximum', halfWidth, target };
  if (n < rule.minRuns || halfWidth === null || target === null) return { ...base, stop: false, reason: 'too few runs', halfWidth, target };
  return halfWidth <= target ? { ...base, stop: true, reason: 'precise', halfWidth, target } : { ...base, stop: false, reason: 'too wide', halfWidth, target };
}
