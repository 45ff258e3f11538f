// Soak verdict (paper 002's soak suite): after a warm-up, the first and the last drift windows are compared.
// PASS only if the PSS of every variant process grows ≤ maxMemoryGrowth, the p95 of OK requests
// rises ≤ maxP95Drift, and no request is KO. A rule without data fails (nothing measured is not
// a pass).
import { summarize } from './latency';
import { meanPss, type PssSample } from './memory';
import type { RequestSample } from './samples';
import { between } from './timeline';

export type { PssSample };

export interface SoakInput {
  requests: RequestSample[];
  /** PSS samples of the variant processes (native servers and k6 excluded). */
  pss: PssSample[];
  loadFromMs: number;
  /** Seconds from the start of the load: the warm-up ends at warmupS, the load at endS. */
  warmupS: number;
  endS: number;
  /** Width of the first and last windows; default a fifth of [warmupS, endS). */
  driftWindowS?: number;
  /** KO requests of the whole run (k6's count). */
  ko: number;
  maxMemoryGrowth: number;
  maxP95Drift: number;
}

export interface MemoryGrowth {
  group: string;
  firstBytes: number | null;
  lastBytes: number | null;
  /** last / first − 1 of the mean PSS over each window. */
  growth: number | null;
  pass: boolean;
}

export interface SoakVerdict {
  firstWindowS: [number, number];
  lastWindowS: [number, number];
  memory: MemoryGrowth[];
  p95: { firstMs: number | null; lastMs: number | null; drift: number | null; pass: boolean };
  ko: { count: number; pass: boolean };
  thresholds: { maxMemoryGrowth: number; maxP95Drift: number };
  pass: boolean;
  /** Why it failed, one line per broken rule. */
  failures: string[];
}

function relative(first: number | null, last: number | null): number | null {
  return first === null || last === null || first === 0 ? null : last / first - 1;
}

/** growth ≤ max, with room for float rounding (1100 / 1000 − 1 is 0.10000000000000009). */
function within(growth: number | null, max: number): boolean {
  return growth !== null && growth <= max + 1e-12;
}

export function soakVerdict(input: SoakInput): SoakVerdict {
  const w = input.driftWindowS ?? (input.endS - input.warmupS) / 5;
  const first: [number, number] = [input.warmupS, input.warmupS + w];
  const last: [number, number] = [input.endS - w, input.endS];
  const ms = (s: number): number => input.loadFromMs + s * 1000;
  const groups = [...new Set(input.pss.map((s) => s.group))].sort();
  const memory = groups.map((group) => {
    const own = input.pss.filter((s) => s.group === group);
    const firstBytes = meanPss(own, ms(first[0]), ms(first[1]));
    const lastBytes = meanPss(own, ms(last[0]), ms(last[1]));
    const growth = relative(firstBytes, lastBytes);
    return { group, firstBytes, lastBytes, growth, pass: within(growth, input.maxMemoryGrowth) };
  });
  const firstMs = summarize(between(input.requests, input.loadFromMs, ...first)).p95;
  const lastMs = summarize(between(input.requests, input.loadFromMs, ...last)).p95;
  const drift = relative(firstMs, lastMs);
  const p95 = { firstMs, lastMs, drift, pass: within(drift, input.maxP95Drift) };
  const ko = { count: input.ko, pass: input.ko === 0 };
  const failures = [
    ...(memory.length === 0 ? ['no PSS sample of a variant process'] : []),
    ...memory.filter((m) => !m.pass).map((m) => (m.growth === null ? `${m.group}: PSS not sampled in both windows` : `${m.group}: PSS +${pct(m.growth)} > ${pct(input.maxMemoryGrowth)}`)),
    ...(p95.pass ? [] : [drift === null ? 'p95: no OK request in one of the windows' : `p95 drift ${pct(drift)} > ${pct(input.maxP95Drift)}`]),
    ...(ko.pass ? [] : [`${input.ko} KO (0 allowed)`]),
  ];
  return { firstWindowS: first, lastWindowS: last, memory, p95, ko, thresholds: { maxMemoryGrowth: input.maxMemoryGrowth, maxP95Drift: input.maxP95Drift }, pass: failures.length === 0, failures };
}

function pct(v: number): string {
  return `${(100 * v).toFixed(1)}%`;
}
