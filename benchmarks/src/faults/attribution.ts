// The attribution checked against a known cause: the trace breakdown of the
// fault window against the steady window must name the slowed hop as the largest contributor to
// the p50 and the p95 increase. A component's part of a percentile is its share there (the
// traces/ latency shares: the band of requests around it) times the percentile, so the parts of
// one window add up to its percentile and their differences to the increase.
//
// Two rules keep the check about causes:
// - a hop the SPS never crosses (gateway → leftover) is judged over the requests that do cross it;
// - a wait for a busy server (a job in the broker's queue, a request before a service accepts it)
//   grows when that server's work slows down: it is an effect, so it can be named only where it
//   is the slowed hop's own signature (the proxy's delay shows as the wait around the callee).
//   The largest increase with waits included is kept beside the verdict.
import type { Hop } from '@shellgrade/variant';
import { rootCrossing, sharesAt, type Component, type RequestBreakdown, type RootFinder } from '@shellgrade/traces';

const BROKER: Component[] = ['broker.publish', 'broker.queue_wait', 'broker.consume'];

/**
 * Where a slowed hop shows in the breakdown: a service hop as the wait of the gateway's client
 * span around the callee's server span (queueing before the callee), a server hop as its client
 * spans. BullMQ's queue lives in Redis: there the broker's hand-off spans are Redis's too.
 */
export function hopComponents(hop: Hop, dispatch?: string): Component[] {
  switch (hop) {
    case 'exercise':
      return ['exercise.queueing'];
    case 'leftover':
      return ['leftover.queueing'];
    case 'postgres':
      return ['database'];
    case 'rabbitmq':
      return BROKER;
    case 'redis':
      return dispatch === 'bullmq' ? ['cache', ...BROKER] : ['cache'];
  }
}

/** Waits for a busy server downstream (see the rules above). */
const WAITS: ReadonlySet<Component> = new Set<Component>(['client/queueing', 'gateway.queueing', 'leftover.queueing', 'exercise.queueing', 'broker.queue_wait']);

/** The requests a hop is judged over: the SPS, except for a hop it never crosses. */
export const HOP_REQUESTS: Record<Hop, { label: string; service?: string }> = {
  exercise: { label: 'SPS' },
  leftover: { label: 'requests through the leftover service', service: 'shellgrade-leftover' },
  postgres: { label: 'SPS' },
  rabbitmq: { label: 'SPS' },
  redis: { label: 'SPS' },
};

/** How the traces of a hop's windows are picked (undefined: the SPS). */
export function hopRoot(hop: Hop): RootFinder | undefined {
  const service = HOP_REQUESTS[hop].service;
  return service ? rootCrossing(service) : undefined;
}

/** Percentile → half-width of the band its shares come from (p95: p92.5–p97.5). */
const BANDS = { p50: [0.5, 0.05], p95: [0.95, 0.025] } as const;

/**
 * Fewest requests a band's parts are averaged over. A short window's p95 band is one request:
 * measured in CI (12 SPS a window), one slow grading there (+165 ms at p95 against +100 ms
 * injected) named grading.process instead of the slowed hop.
 */
export const MIN_BAND_REQUESTS = 5;

export interface QuantileIncrease {
  steadyMs: number;
  faultMs: number;
  /** Component → fault part − steady part (ms), largest first. */
  increases: [Component, number][];
  /** The component with the largest increase, waits counted only as the hop's signature; null when nothing increased. */
  largest: Component | null;
  /** The largest increase of any component, waits included. */
  largestDirect: Component | null;
  named: boolean;
}

export interface AttributionVerdict {
  hop: Hop;
  expected: Component[];
  /** Which requests the windows hold (HOP_REQUESTS). */
  requests: string;
  steadyRequests: number;
  faultRequests: number;
  p50: QuantileIncrease;
  p95: QuantileIncrease;
  /** Both increases name the hop. */
  named: boolean;
}

function parts(requests: RequestBreakdown[], quantile: number, halfWidth: number): { latencyMs: number; ms: Map<Component, number> } {
  const s = sharesAt(requests, quantile, halfWidth, MIN_BAND_REQUESTS);
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
  const top = (list: [Component, number][]) => (list.length > 0 && list[0][1] > 0 ? list[0][0] : null);
  const largest = top(increases.filter(([c]) => !WAITS.has(c) || expected.includes(c)));
  return { steadyMs: a.latencyMs, faultMs: b.latencyMs, increases, largest, largestDirect: top(increases), named: largest !== null && expected.includes(largest) };
}

/** The verdict of one latency fault from the breakdowns (HOP_REQUESTS) of its steady and fault windows; `dispatch`: the variant's. */
export function attributeHopFault(hop: Hop, steady: RequestBreakdown[], fault: RequestBreakdown[], dispatch?: string): AttributionVerdict {
  const requests = HOP_REQUESTS[hop].label;
  if (steady.length === 0 || fault.length === 0) throw new Error(`no ${requests} traces in the ${steady.length === 0 ? 'steady' : 'fault'} window to attribute the ${hop} slowdown with`);
  const expected = hopComponents(hop, dispatch);
  const p50 = increase(steady, fault, 'p50', expected);
  const p95 = increase(steady, fault, 'p95', expected);
  return { hop, expected, requests, steadyRequests: steady.length, faultRequests: fault.length, p50, p95, named: p50.named && p95.named };
}

/** Share of the latency faults whose slowed hop the attribution named (null: none had a verdict). */
export function namedShare(verdicts: (AttributionVerdict | null | undefined)[]): { named: number; of: number; share: number | null } {
  const judged = verdicts.filter((v): v is AttributionVerdict => !!v);
  const named = judged.filter((v) => v.named).length;
  return { named, of: judged.length, share: judged.length ? named / judged.length : null };
}
