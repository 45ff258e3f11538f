// The verdict rules, applied exactly as written in RULES (printed beside every verdict). A claim
// of a difference is reproduced by Welch's 95% interval on its side of 0; "no practical
// difference" is a conclusion — TOST within the claim's margin — that refutes a claimed
// difference and reproduces a claimed ceiling. The rank test is reported beside, and named when
// it disagrees with Welch (few runs, or a skewed metric).
import type { Expectation } from './claims';
import type { Comparison } from './comparison';

export type Verdict = 'reproduced' | 'refuted' | 'inconclusive' | 'not testable';

/**
 * How a verdict was obtained (docs/design.md, Testing claims about scale): measured on the testbed as it is, measured in the
 * scale model (one paper CPU × s per container), or predicted at the paper's hardware by the
 * queueing models (npm run models).
 */
export type Evidence = { kind: 'measured-unscaled'; sutCpus: number } | { kind: 'measured-scaled'; s: number } | { kind: 'predicted'; model: string };

export function evidenceText(e: Evidence): string {
  if (e.kind === 'measured-scaled') return `measured in the scale model (s = ${e.s.toPrecision(3)})`;
  if (e.kind === 'predicted') return `predicted at the paper's hardware (${e.model})`;
  return `measured unscaled (system under test: ${e.sutCpus} CPU${e.sutCpus === 1 ? '' : 's'})`;
}

export const RULES = {
  higher: 'reproduced when the 95% Welch interval of B − A lies above 0; refuted when it lies below 0, or when TOST shows B − A within ±margin (no practical difference); otherwise inconclusive',
  lower: 'reproduced when the 95% Welch interval of B − A lies below 0; refuted when it lies above 0, or when TOST shows B − A within ±margin (no practical difference); otherwise inconclusive',
  same: 'reproduced when TOST shows B − A within ±margin (no practical difference: a ceiling); refuted when the 95% Welch interval excludes 0 and |B − A| exceeds the margin; otherwise inconclusive',
  finding: 'a finding is reproduced when every one of its parts is, refuted when any part is, not testable when a part is and none is refuted, inconclusive otherwise',
  testbed: 'a part about what replication buys (a scaling claim\'s availability or performance) is not testable, whatever its interval says, on a testbed whose system under test has fewer CPUs than either configuration has processes: replicas there share CPU rather than add it',
} as const;

export interface PartVerdict {
  verdict: Verdict;
  why: string;
  /** For an inconclusive part: what would settle it. */
  settle?: string;
}

/** Valid runs per side that would bring the interval's half-width down to `target` at the observed spread. */
function runsNeeded(c: Comparison, target: number): number | null {
  const d = c.welch;
  if (d.lo === null || d.hi === null || target <= 0) return null;
  const half = (d.hi - d.lo) / 2;
  if (half === 0) return null;
  return Math.ceil(Math.min(d.nA, d.nB) * (half / target) ** 2);
}

function settleByRuns(c: Comparison, target: number, what: string): string {
  const n = runsNeeded(c, target);
  return n === null ? `more valid runs per side (${what})` : `about ${n} valid runs per side at the observed spread (${what}); now ${c.welch.nA} and ${c.welch.nB}`;
}

const p3 = (x: number): string => x.toPrecision(3);

/** The smallest two-sided exact Mann–Whitney p with n and m runs: 2 / C(n + m, n). */
function smallestP(n: number, m: number): number {
  let c = 1;
  for (let i = 1; i <= n; i++) c = (c * (m + i)) / i;
  return Math.min(1, 2 / c);
}

/** "; Mann–Whitney p = 0.100 (exact), Cliff's δ = −1.00 (large)", and why when it disagrees with Welch. */
function rankText(c: Comparison): string {
  const r = c.rank;
  if (!r) return '';
  const rankSays = r.p <= 0.05;
  const floor = smallestP(r.nA, r.nB);
  const disagree = c.welch.significant === rankSays ? '' : ` — the rank test ${rankSays ? 'finds' : 'does not find'} a difference at 5 %${!rankSays && floor > 0.05 ? ` (with ${r.nA} and ${r.nB} runs it cannot: its smallest p is ${floor.toFixed(3)})` : ''}`;
  return `; Mann–Whitney p = ${r.p.toFixed(3)} (${r.method}), Cliff's δ = ${r.cliffsDelta.toFixed(2)} (${r.magnitude})${disagree}`;
}

export function judgePart(c: Comparison, expect: Expectation): PartVerdict {
  const d = c.welch;
  if (d.lo === null || d.hi === null || d.diff === null) {
    return { verdict: 'inconclusive', why: d.note ?? 'no interval', settle: `at least 2 valid runs of each side (now ${d.nA} and ${d.nB})` };
  }
  if (d.meanA === 0 && d.meanB === 0) {
    return { verdict: 'inconclusive', why: 'both sides are 0 at this load', settle: 'a load level at which the baseline fails or slows' };
  }
  const band = c.band!;
  const equivalent = c.tost?.equivalent === true;
  const ci = `95% CI [${p3(d.lo)}, ${p3(d.hi)}]`;
  const tostText = c.tost ? `TOST ±${p3(band)} (±${100 * c.margin}%): p = ${c.tost.p.toPrecision(2)}` : 'no TOST';
  const rank = rankText(c);
  if (expect === 'same') {
    if (equivalent) return { verdict: 'reproduced', why: `${tostText}: no practical difference; ${ci}${rank}` };
    if (d.significant && Math.abs(d.diff) > band) return { verdict: 'refuted', why: `${ci} excludes 0 and |B − A| exceeds ±${p3(band)}${rank}` };
    return { verdict: 'inconclusive', why: `${ci}, ${tostText}: neither equivalent nor beyond the margin${rank}`, settle: settleByRuns(c, Math.max(band - Math.abs(d.diff), band / 4), 'to fit the interval within the margin') };
  }
  if ((expect === 'higher' && d.lo > 0) || (expect === 'lower' && d.hi < 0)) return { verdict: 'reproduced', why: `${ci} lies ${expect === 'higher' ? 'above' : 'below'} 0${rank}` };
  if ((expect === 'higher' && d.hi < 0) || (expect === 'lower' && d.lo > 0)) return { verdict: 'refuted', why: `${ci} lies ${expect === 'higher' ? 'below' : 'above'} 0: the opposite of the claim${rank}` };
  if (equivalent) return { verdict: 'refuted', why: `${tostText}: no practical difference; ${ci}${rank}` };
  return { verdict: 'inconclusive', why: `${ci} includes 0; ${tostText}${rank}`, settle: settleByRuns(c, Math.abs(d.diff) || band, 'to exclude 0 if the observed difference is real') };
}

export function combine(parts: Verdict[]): Verdict {
  if (parts.length && parts.every((p) => p === 'reproduced')) return 'reproduced';
  if (parts.includes('refuted')) return 'refuted';
  return parts.includes('not testable') ? 'not testable' : 'inconclusive';
}

/**
 * A part the testbed cannot show: its comparison kept (what was measured, and why it does not
 * count), the verdict "not testable" with what would test it.
 */
export function notTestable(measured: PartVerdict, sutCpus: number, processes: number, variants: string): PartVerdict {
  return {
    verdict: 'not testable',
    why: `the system under test has ${sutCpus} CPU${sutCpus === 1 ? '' : 's'} for ${processes} processes (${variants}): replicas share CPU rather than add it, so this measures contention, not replication (measured: ${measured.verdict} — ${measured.why})`,
    settle: `the scale model (npm run findings -- --testbed scaled: one paper CPU × s of quota per process), or a system under test with at least ${processes} CPUs, or the queueing models' prediction at the paper's 24 threads (npm run models)`,
  };
}
