// The verdict rules, applied exactly as written in RULES (printed beside every verdict).
import type { Difference } from '../compare/difference';
import type { Expectation } from './claims';

export type Verdict = 'reproduced' | 'refuted' | 'inconclusive';

/** Relative margin of "no practical effect": ±10% of the larger of the two means. */
export const MARGIN = 0.1;

export const RULES = {
  higher: 'reproduced when the 95% interval of B − A lies above 0; refuted when it lies below 0, or within ±10% of the larger mean (no effect of that size); otherwise inconclusive',
  lower: 'reproduced when the 95% interval of B − A lies below 0; refuted when it lies above 0, or within ±10% of the larger mean (no effect of that size); otherwise inconclusive',
  same: 'reproduced when the 95% interval of B − A lies within ±10% of the larger mean (a ceiling: no gain of that size); refuted when it excludes 0 beyond that band; otherwise inconclusive',
  finding: 'a finding is reproduced when every one of its parts is, refuted when any part is, inconclusive otherwise',
} as const;

export interface PartVerdict {
  verdict: Verdict;
  why: string;
  /** For an inconclusive part: what would settle it. */
  settle?: string;
}

/** Valid runs per side that would bring the interval's half-width down to `target` at the observed spread. */
function runsNeeded(d: Difference, target: number): number | null {
  if (d.lo === null || d.hi === null || target <= 0) return null;
  const half = (d.hi - d.lo) / 2;
  if (half === 0) return null;
  return Math.ceil(Math.min(d.nA, d.nB) * (half / target) ** 2);
}

function settleByRuns(d: Difference, target: number, what: string): string {
  const n = runsNeeded(d, target);
  return n === null ? `more valid runs per side (${what})` : `about ${n} valid runs per side at the observed spread (${what}); now ${d.nA} and ${d.nB}`;
}

export function judgePart(d: Difference, expect: Expectation, margin = MARGIN): PartVerdict {
  if (d.lo === null || d.hi === null || d.diff === null) {
    return { verdict: 'inconclusive', why: d.note ?? 'no interval', settle: `at least 2 valid runs of each side (now ${d.nA} and ${d.nB})` };
  }
  if (d.meanA === 0 && d.meanB === 0) {
    return { verdict: 'inconclusive', why: 'both sides are 0 at this load', settle: 'a load at which the baseline fails or slows (a higher --peak)' };
  }
  const band = margin * Math.max(Math.abs(d.meanA ?? 0), Math.abs(d.meanB ?? 0));
  const within = d.lo >= -band && d.hi <= band;
  const ci = `95% CI [${d.lo.toPrecision(3)}, ${d.hi.toPrecision(3)}]`;
  if (expect === 'same') {
    if (within) return { verdict: 'reproduced', why: `${ci} within ±${band.toPrecision(3)}` };
    if (d.significant && Math.abs(d.diff) > band) return { verdict: 'refuted', why: `${ci} excludes 0 and |B − A| exceeds ±${band.toPrecision(3)}` };
    return { verdict: 'inconclusive', why: `${ci} neither within ±${band.toPrecision(3)} nor beyond it`, settle: settleByRuns(d, Math.max(band - Math.abs(d.diff), band / 4), 'to fit the interval within the band') };
  }
  if ((expect === 'higher' && d.lo > 0) || (expect === 'lower' && d.hi < 0)) return { verdict: 'reproduced', why: `${ci} lies ${expect === 'higher' ? 'above' : 'below'} 0` };
  if ((expect === 'higher' && d.hi < 0) || (expect === 'lower' && d.lo > 0)) return { verdict: 'refuted', why: `${ci} lies ${expect === 'higher' ? 'below' : 'above'} 0: the opposite of the claim` };
  if (within) return { verdict: 'refuted', why: `${ci} within ±${band.toPrecision(3)}: no effect of that size` };
  return { verdict: 'inconclusive', why: `${ci} includes 0`, settle: settleByRuns(d, Math.abs(d.diff) || band, 'to exclude 0 if the observed difference is real') };
}

export function combine(parts: Verdict[]): Verdict {
  if (parts.length && parts.every((p) => p === 'reproduced')) return 'reproduced';
  return parts.includes('refuted') ? 'refuted' : 'inconclusive';
}
