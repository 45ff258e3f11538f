// The attribution check's arithmetic: the component whose part of the p50 and
// of the p95 grew most between the steady and the fault window must be the slowed hop's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Component, RequestBreakdown } from '@shellgrade/traces';
import { attributeHopFault, MIN_BAND_REQUESTS, namedShare } from '../src/faults/attribution';

/** n requests whose components are `base` plus a spread on the exercise self time (so percentiles differ). */
function requests(n: number, base: Partial<Record<Component, number>>, startUs = 0): RequestBreakdown[] {
  return Array.from({ length: n }, (_, i) => {
    const components = { ...base, exercise: (base.exercise ?? 0) + i };
    const totalMs = Object.values(components).reduce((s, v) => s + (v ?? 0), 0);
    return { traceId: `t${startUs + i}`, variant: 'msa-1-2', rootService: 'shellgrade-gateway', startUs: startUs + i, serverMs: totalMs, clientMs: null, totalMs, status: 200, components };
  });
}

const steady = requests(60, { gateway: 5, 'exercise.queueing': 2, exercise: 100, database: 20 });

describe('attributeHopFault', () => {
  it('names the gateway → exercise hop when +100 ms lands in the wait around the exercise server span', () => {
    const fault = requests(60, { gateway: 5, 'exercise.queueing': 102, exercise: 100, database: 21 }, 1000);
    const v = attributeHopFault('exercise', steady, fault);
    expect(v.p50.largest).toBe('exercise.queueing');
    expect(v.p95.largest).toBe('exercise.queueing');
    expect(v.p50.increases[0][1]).toBeCloseTo(100, 0);
    // The parts of each window add up to its percentile, their differences to the increase.
    expect(v.p50.increases.reduce((s, [, d]) => s + d, 0)).toBeCloseTo(v.p50.faultMs - v.p50.steadyMs, 6);
    expect(v.p95.increases.reduce((s, [, d]) => s + d, 0)).toBeCloseTo(v.p95.faultMs - v.p95.steadyMs, 6);
    expect(v.named).toBe(true);
  });

  it('does not name the hop when the increase is elsewhere (the database), nor when nothing increased', () => {
    const slowDb = attributeHopFault('exercise', steady, requests(60, { gateway: 5, 'exercise.queueing': 3, exercise: 100, database: 120 }, 1000));
    expect(slowDb.p50.largest).toBe('database');
    expect(slowDb.named).toBe(false);
    expect(attributeHopFault('postgres', steady, requests(60, { gateway: 5, 'exercise.queueing': 3, exercise: 100, database: 120 }, 1000)).named).toBe(true);
    const same = attributeHopFault('exercise', steady, steady);
    expect(same.p50.largest).toBeNull();
    expect(same.named).toBe(false);
  });

  it('a short window: one slow grading in the p95 band does not outweigh +100 ms on every request (the band holds at least MIN_BAND_REQUESTS)', () => {
    // 12 SPS a window, as in the e2e's smoke run: gradings 100..155 ms; in the fault window the
    // slowest took 320 ms (+165 ms over the steady window's slowest), every request waited +100 ms.
    const window = (queueing: number, slowest: number | null, startUs: number): RequestBreakdown[] =>
      Array.from({ length: 12 }, (_, i) => {
        const components: Partial<Record<Component, number>> = { gateway: 5, 'exercise.queueing': queueing, 'grading.process': i === 11 && slowest !== null ? slowest : 100 + 5 * i };
        const totalMs = Object.values(components).reduce((s, v) => s + (v ?? 0), 0);
        return { traceId: `w${startUs + i}`, variant: 'msa-1-2', rootService: 'shellgrade-gateway', startUs: startUs + i, serverMs: totalMs, clientMs: null, totalMs, status: 200, components };
      });
    const v = attributeHopFault('exercise', window(2, null, 0), window(102, 320, 1000));
    expect(MIN_BAND_REQUESTS).toBeGreaterThan(1);
    expect(v.p95.largest).toBe('exercise.queueing');
    expect(v.p95.increases.find(([c]) => c === 'grading.process')![1]).toBeLessThan(v.p95.increases[0][1]);
    expect(v.named).toBe(true);
  });

  it('a broker hop is named by any of its hand-off components; an empty window has no verdict', () => {
    const base = { gateway: 5, exercise: 50, 'broker.publish': 2, 'broker.queue_wait': 3, 'broker.consume': 1 };
    const v = attributeHopFault('rabbitmq', requests(40, base), requests(40, { ...base, 'broker.queue_wait': 103 }, 1000));
    expect(v.p95.largest).toBe('broker.queue_wait');
    expect(v.named).toBe(true);
    expect(() => attributeHopFault('exercise', steady, [])).toThrow(/no SPS traces in the fault window/);
  });

  it('a wait for a busy server is an effect: named only where it is the slowed hop\'s own signature', () => {
    // PostgreSQL slowed: the grading consumer writes slower, jobs wait longer in the queue.
    const base = { gateway: 5, exercise: 50, database: 10, 'broker.publish': 2, 'broker.queue_wait': 3, 'broker.consume': 60 };
    const slowed = { ...base, database: 110, 'broker.queue_wait': 700, 'broker.consume': 90 };
    const v = attributeHopFault('postgres', requests(40, base), requests(40, slowed, 1000));
    expect(v.p50.largestDirect).toBe('broker.queue_wait');
    expect(v.p50.largest).toBe('database');
    expect(v.named).toBe(true);
    // Only a wait grew: no cause among the work, so no hop is named (not even the broker's neighbour).
    const onlyWait = attributeHopFault('postgres', requests(40, base), requests(40, { ...base, 'broker.queue_wait': 300 }, 1000));
    expect(onlyWait.p50.largest).toBeNull();
    expect(onlyWait.named).toBe(false);
    // The broker hop itself keeps its wait as its signature; so does Redis where it is BullMQ's broker, and only there.
    const waited = requests(40, { ...base, 'broker.queue_wait': 300 }, 1000);
    expect(attributeHopFault('rabbitmq', requests(40, base), waited).named).toBe(true);
    expect(attributeHopFault('redis', requests(40, base), waited, 'bullmq').named).toBe(true);
    expect(attributeHopFault('redis', requests(40, base), waited, 'rabbitmq').named).toBe(false);
  });

  it('the leftover hop is judged over the requests through the leftover service, named by the wait around it', () => {
    const base = { gateway: 5, 'leftover.queueing': 1, leftover: 20, database: 5 };
    const v = attributeHopFault('leftover', requests(30, base), requests(30, { ...base, 'leftover.queueing': 101 }, 1000));
    expect(v.requests).toBe('requests through the leftover service');
    expect(v.p95.largest).toBe('leftover.queueing');
    expect(v.named).toBe(true);
    expect(() => attributeHopFault('leftover', requests(30, base), [])).toThrow(/no requests through the leftover service traces in the fault window/);
  });

  it('the share named correctly counts only faults with a verdict', () => {
    const named = attributeHopFault('exercise', steady, requests(60, { gateway: 5, 'exercise.queueing': 102, exercise: 100, database: 20 }, 1000));
    const missed = attributeHopFault('exercise', steady, steady);
    expect(namedShare([named, missed, null, undefined])).toEqual({ named: 1, of: 2, share: 0.5 });
    expect(namedShare([null])).toEqual({ named: 0, of: 0, share: null });
  });
});

describe('attributeHopFault on recorded traces', () => {
  // A real run (results/20261127T010604Z-msa-1-2-fault-latency-exercise): msa-1-2 at 2 it/s, +100 ms
  // on the gateway → exercise hop through toxiproxy; the SPS breakdowns of its 20 s steady and
  // 20 s fault windows as traces/ computed them from Jaeger.
  const recorded = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'faults-latency-exercise-windows.json'), 'utf8')) as { hop: 'exercise'; steady: RequestBreakdown[]; during: RequestBreakdown[] };

  it('names the slowed hop at p50 and p95, with about the injected 100 ms', () => {
    const v = attributeHopFault(recorded.hop, recorded.steady, recorded.during);
    expect([v.steadyRequests, v.faultRequests]).toEqual([40, 40]);
    expect(v.p50.largest).toBe('exercise.queueing');
    expect(v.p95.largest).toBe('exercise.queueing');
    expect(v.p50.increases[0][1]).toBeGreaterThan(90);
    expect(v.p50.increases[0][1]).toBeLessThan(110);
    expect(v.named).toBe(true);
  });

  it('the same traces do not name a hop that was not slowed', () => {
    expect(attributeHopFault('postgres', recorded.steady, recorded.during).named).toBe(false);
    expect(attributeHopFault('exercise', recorded.steady, recorded.steady).named).toBe(false);
  });
});

describe('attributeHopFault on recorded traces of a downstream effect', () => {
  // A real run (results/20261127T045110Z-msa-rabbitmq-1-2-fault-latency-postgres): msa-rabbitmq-1-2
  // at 4 it/s, +100 ms on every PostgreSQL answer for 10 s. The jobs then waited ~1.4 s more in the
  // queue (the consumer writing slower) while the statements on the path took ~0.4 s more.
  const recorded = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'faults-latency-postgres-rabbitmq-windows.json'), 'utf8')) as { hop: 'postgres'; steady: RequestBreakdown[]; during: RequestBreakdown[] };

  it('names the database, not the queue wait it caused, at p50 and p95', () => {
    const v = attributeHopFault(recorded.hop, recorded.steady, recorded.during);
    expect([v.steadyRequests, v.faultRequests]).toEqual([32, 38]);
    expect(v.p50.largestDirect).toBe('broker.queue_wait');
    expect(v.p50.largest).toBe('database');
    expect(v.p95.largest).toBe('database');
    expect(v.named).toBe(true);
    // Redis (the cache here) is not on the path of these jobs: the queue wait is not its signature.
    expect(attributeHopFault('redis', recorded.steady, recorded.during, 'rabbitmq').named).toBe(false);
  });
});
