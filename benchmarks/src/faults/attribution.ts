// The attribution checked against a known cause (issue 35 item 3): the trace breakdown of the
// fault window against the steady window must name the slowed hop as the largest contributor to
// the p50 and the p95 increase. A component's part of a percentile is its share there (the
// traces/ latency shares: the band of requests around it) times the percentile, so the parts of
// one window add up to its percentile and their differences to the increase.
import type { Hop } from '@shellgrade/variant';
import { sharesAt, type Component, type RequestBreakdown } from '@shellgrade/traces';

const BROKER: Component[] = ['broker.publish', 'broker.queue_wait', 'broker.consume'];

/**
 * Where a slowed hop shows in the breakdown: a service hop as the wait of the gateway's client
 * span around the callee's server span (queueing before the callee), a server hop as its client spans.
 */
export const HOP_COMPONENTS: Record<Hop, Component[]> = {
  exercise: ['exercise.queueing'],
  leftover: ['leftover.queueing'],
  postgres: ['database'],
  rabbitmq: BROKER,
  // BullMQ's queue lives in Redis: its hand-off spans are the broker's.
  redis: ['cache', ...BROKER],
};

/** Percentile → half-width of the band its shares come from (p95: p92.5–p97.5). */
const BANDS = { p50: [0.5, 0.05], p95: [0.95, 0.025] } as const;

export interface QuantileIncrease {
  steadyMs: number;
  faultMs: number;
  /** Component → fault part − steady part (ms), largest first. */
  increases: [Component, number][];
  /** The component with the largest increase; null when nothing increased. */
  largest: Component | null;
  named: boolean;
}

export interface AttributionVerdict {
  hop: Hop;
  expected: Component[];
  steadyRequests: number;
  faultRequests: number;
  p50: QuantileIncrease;
  p95: QuantileIncrease;
  /** Both increases name the hop. */
  named: boolean;
}

function parts(requests: RequestBreakdown[], quantile: number, halfWidth: number): { latencyMs: number; ms: Map<Component, number> } {
  const s = sharesAt(requests, quantile, halfWidth);
  return { latencyMs: s.latencyMs, ms: new Map(s.shares.map(([c, share]) => [c, share * s.latencyMs])) };
}

function increase(steady: RequestBreakdown[], fault: RequestBreakdown[], which: keyof typeof BANDS, expected: Component[]): QuantileIncrease {
  const [q, half] = BANDS[which];
  const a = parts(steady, q, half);
  const b = parts(fault, q, half);
  const components = [...new Set([...a.ms.keys(), ...b.ms.keys()])];
  const increases = components
    .map((c): [Component, number] => [c, (b.ms.get(c) ?? 0) - (a.ms.get(c) ?? 0)])
    .sort((x, y) => y[1] - x[1]);
  const largest = increases.length > 0 && increases[0][1] > 0 ? increases[0][0] : null;
  return { steadyMs: a.latencyMs, faultMs: b.latencyMs, increases, largest, named: largest !== null && expected.includes(largest) };
}

/** The verdict of one latency fault from the SPS breakdowns of its steady and fault windows. */
export function attributeHopFault(hop: Hop, steady: RequestBreakdown[], fault: RequestBreakdown[]): AttributionVerdict {
  if (steady.length === 0 || fault.length === 0) throw new Error(`no SPS traces in the ${steady.length === 0 ? 'steady' : 'fault'} window to attribute the ${hop} slowdown with`);
  const expected = HOP_COMPONENTS[hop];
  const p50 = increase(steady, fault, 'p50', expected);
  const p95 = increase(steady, fault, 'p95', expected);
  return { hop, expected, steadyRequests: steady.length, faultRequests: fault.length, p50, p95, named: p50.named && p95.named };
}

/** Share of the latency faults whose slowed hop the attribution named (null: none had a verdict). */
export function namedShare(verdicts: (AttributionVerdict | null | undefined)[]): { named: number; of: number; share: number | null } {
  const judged = verdicts.filter((v): v is AttributionVerdict => !!v);
  const named = judged.filter((v) => v.named).length;
  return { named, of: judged.length, share: judged.length ? named / judged.length : null };
}
