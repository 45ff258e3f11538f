import { attributeCriticalPath, indexSpans, linkBrokerHandoffs } from '../src/attribution/critical-path';
import { breakdownRequest, rootCrossing } from '../src/attribution/request';
import type { TraceSpan } from '@shellgrade/trace-model';
import { span, spsRoot, trace } from './fixtures/span-trees';

/** Critical-path times in ms for a tree rooted at `spans[0]`. */
function attribute(spans: TraceSpan[]) {
  const linked = linkBrokerHandoffs(spans);
  const us = attributeCriticalPath(linked[0], indexSpans(linked));
  return Object.fromEntries(Object.entries(us).map(([k, v]) => [k, v / 1000]));
}

function sum(times: Record<string, number | undefined>): number {
  return Object.values(times).reduce<number>((s, v) => s + (v ?? 0), 0);
}

const pg = (id: string, parent: string, start: number, end: number) =>
  span({ id, parent, name: 'pg.query:SELECT shellgrade', kind: 'client', start, end, tags: { 'db.system': 'postgresql' } });

describe('critical-path attribution', () => {
  it('gives the root its self time and each child its duration', () => {
    const t = attribute([spsRoot(0, 100), pg('a', 'root', 10, 30)]);
    expect(t).toEqual({ exercise: 80, database: 20 });
  });

  it('counts gaps between sequential children as the parent self time', () => {
    const t = attribute([spsRoot(0, 100), pg('a', 'root', 10, 20), pg('b', 'root', 50, 60)]);
    expect(t).toEqual({ exercise: 80, database: 20 });
  });

  it('counts overlapping children once: the last finisher, then the part of the other before it started', () => {
    const t = attribute([
      spsRoot(0, 100),
      span({ id: 'a', parent: 'root', name: 'storage.get', start: 10, end: 60 }),
      pg('b', 'root', 40, 90),
    ]);
    // b on the path 40..90, a clamped to 10..40, root self 0..10 and 90..100.
    expect(t).toEqual({ database: 50, storage: 30, exercise: 20 });
    expect(sum(t)).toBe(100);
  });

  it('ignores a child fully overlapped by a later-finishing sibling', () => {
    const t = attribute([spsRoot(0, 100), pg('long', 'root', 10, 90), span({ id: 's', parent: 'root', name: 'storage.put', start: 20, end: 30 })]);
    expect(t).toEqual({ database: 80, exercise: 20 });
  });

  it('clamps an async child finishing after its parent, and drops one starting after it', () => {
    const t = attribute([
      spsRoot(0, 100),
      span({ id: 'g', parent: 'root', name: 'grading.process', start: 50, end: 150 }),
      span({ id: 'late', parent: 'root', name: 'storage.put', start: 120, end: 130 }),
    ]);
    expect(t).toEqual({ exercise: 50, 'grading.process': 50 });
  });

  it('absorbs generic children of storage spans (postgres archive store)', () => {
    const t = attribute([spsRoot(0, 100), span({ id: 's', parent: 'root', name: 'storage.put', start: 10, end: 40 }), pg('q', 's', 15, 35)]);
    expect(t).toEqual({ exercise: 70, storage: 30 });
  });

  it('splits a broker hand-off into publish, queue wait and consume', () => {
    const t = attribute([
      spsRoot(0, 200),
      span({ id: 'pub', parent: 'root', name: 'broker.publish', kind: 'producer', start: 10, end: 20 }),
      // The client library's own producer span inside ours; the consumer links to it.
      span({ id: 'amqp-pub', parent: 'pub', name: 'grading publish', kind: 'producer', start: 12, end: 18 }),
      span({ id: 'con', parent: 'amqp-pub', name: 'broker.consume', kind: 'consumer', service: 'shellgrade-exercise', start: 50, end: 180 }),
      span({ id: 'gp', parent: 'con', name: 'grading.process', service: 'shellgrade-exercise', start: 60, end: 170 }),
    ]);
    expect(t).toEqual({
      'broker.publish': 10,
      'broker.queue_wait': 30,
      'broker.consume': 20,
      'grading.process': 110,
      exercise: 30,
    });
    expect(sum(t)).toBe(200);
  });

  it("keeps the consumer span that explains the time when the client library's own consumer span of the same delivery ends later", () => {
    // As amqplib's instrumentation and ours record one delivery (a real msa-rabbitmq-1-2 trace):
    // both consumer spans are children of the publish; the library's ends 1 ms after ours.
    const t = attribute([
      spsRoot(0, 200),
      span({ id: 'pub', parent: 'root', name: 'broker.publish', kind: 'producer', start: 10, end: 20 }),
      span({ id: 'amqp-pub', parent: 'pub', name: 'publish <default>', kind: 'producer', start: 12, end: 18 }),
      span({ id: 'con', parent: 'amqp-pub', name: 'broker.consume', kind: 'consumer', service: 'shellgrade-exercise', start: 30, end: 180 }),
      pg('take', 'con', 35, 75),
      span({ id: 'gp', parent: 'con', name: 'grading.process', service: 'shellgrade-exercise', start: 80, end: 170 }),
      span({ id: 'lib', parent: 'amqp-pub', name: 'sg.grading process', kind: 'consumer', service: 'shellgrade-exercise', start: 29, end: 181 }),
      span({ id: 'reply', parent: 'lib', name: 'publish <default>', kind: 'producer', service: 'shellgrade-exercise', start: 180, end: 181 }),
    ]);
    expect(t['grading.process']).toBe(90);
    expect(t.database).toBe(40);
    // The consumer's own time: 30..35, 75..80, 170..180 (the reply, moved under it, ends after it).
    expect(t['broker.consume']).toBe(20);
    expect(sum(t)).toBe(200);
  });

  it('adds no queue wait when consumption starts before the publish span ends', () => {
    const t = attribute([
      spsRoot(0, 100),
      span({ id: 'pub', parent: 'root', name: 'broker.publish', kind: 'producer', start: 10, end: 30 }),
      span({ id: 'con', parent: 'pub', name: 'broker.consume', kind: 'consumer', start: 25, end: 90 }),
    ]);
    expect(t['broker.queue_wait']).toBeUndefined();
    expect(sum(t)).toBe(100);
  });

  it('attributes gateway proxying apart from the service, and the wait for the service to start to queueing before it', () => {
    const t = attribute([
      spsRoot(0, 100, 'shellgrade-gateway'),
      span({ id: 'c', parent: 'root', name: 'POST', kind: 'client', service: 'shellgrade-gateway', start: 5, end: 95 }),
      span({ id: 's', parent: 'c', name: 'POST /api/exercise-production', kind: 'server', service: 'shellgrade-exercise', start: 10, end: 90 }),
      pg('q', 's', 20, 40),
    ]);
    // Root self time 0..5 and 95..100 is the gateway's; the client span's 5..10 and 90..95,
    // waiting for the exercise service to start and to answer, is queueing before that service.
    expect(t).toEqual({ gateway: 10, 'exercise.queueing': 10, exercise: 60, database: 20 });
  });

  it('puts self time of unknown services in unexplained', () => {
    const t = attribute([spsRoot(0, 100), span({ id: 'x', parent: 'root', name: 'mystery', service: 'other', start: 0, end: 40 })]);
    expect(t).toEqual({ unexplained: 40, exercise: 60 });
  });
});

describe('request breakdown', () => {
  const tree = trace(spsRoot(1000, 1100), pg('a', 'root', 1010, 1030));

  it('uses the root span alone when no client sample matched', () => {
    const r = breakdownRequest(tree, null)!;
    expect(r.clientMs).toBeNull();
    expect(r.totalMs).toBe(100);
    expect(r.components['client/queueing']).toBeUndefined();
    expect(r.variant).toBe('naked-mon');
    expect(r.status).toBe(201);
  });

  it('charges the client duration beyond the root span to client/queueing', () => {
    const r = breakdownRequest(tree, 130)!;
    expect(r.components['client/queueing']).toBe(30);
    expect(r.totalMs).toBe(130);
    expect(sum(r.components)).toBeCloseTo(130, 6);
  });

  it('treats a client duration shorter than the server span as no queueing', () => {
    const r = breakdownRequest(tree, 99.5)!;
    expect(r.components['client/queueing']).toBe(0);
    expect(r.totalMs).toBe(100);
  });

  it('ignores traces without an SPS root (login, verify, ...)', () => {
    const login = span({ id: 'l', name: 'POST /api/user/login', kind: 'server', start: 0, end: 10, tags: { 'http.method': 'POST', 'http.target': '/api/user/login' } });
    expect(breakdownRequest(trace(login), 12)).toBeUndefined();
  });

  it('counts every PostgreSQL statement of the trace as a round trip, off the critical path and in the consumer too, but not connects', () => {
    const consumer = span({ id: 'c', parent: 'p', name: 'broker.consume', kind: 'consumer', service: 'shellgrade-exercise', start: 1200, end: 1400 });
    const connect = span({ id: 'k', parent: 'root', name: 'pg.connect', kind: 'client', start: 1001, end: 1002, tags: { 'db.system': 'postgresql' } });
    const publish = span({ id: 'p', parent: 'root', name: 'broker.publish', kind: 'producer', start: 1040, end: 1050 });
    const r = breakdownRequest(
      trace(spsRoot(1000, 1100), connect, pg('a', 'root', 1010, 1030), pg('b', 'root', 1012, 1020), publish, consumer, pg('d', 'c', 1210, 1220), pg('e', 'c', 1300, 1310)),
      null,
    )!;
    expect(r.databaseRoundTrips).toBe(4);
  });

  it('breaks down the requests that cross one service when told to (a hop the SPS never crosses)', () => {
    const login = span({ id: 'l', name: 'POST /api/user/login', kind: 'server', service: 'shellgrade-gateway', start: 0, end: 50, tags: { 'http.method': 'POST', 'http.target': '/api/user/login' } });
    const call = span({ id: 'c', parent: 'l', name: 'POST', kind: 'client', service: 'shellgrade-gateway', start: 5, end: 45 });
    const served = span({ id: 's', parent: 'c', name: 'POST /api/user/login', kind: 'server', service: 'shellgrade-leftover', start: 20, end: 40 });
    const crossesLeftover = rootCrossing('shellgrade-leftover');
    const r = breakdownRequest(trace(login, call, served), null, 'msa-1-2', crossesLeftover)!;
    expect(r.rootService).toBe('shellgrade-gateway');
    // The gateway's client span waits 15 ms before the leftover server span starts, 5 ms after it ends.
    expect(r.components).toEqual({ gateway: 10, 'leftover.queueing': 20, leftover: 20 });
    // An SPS that stays between the gateway and the exercise service is not one of them.
    expect(breakdownRequest(tree, null, 'naked-mon', crossesLeftover)).toBeUndefined();
    expect(breakdownRequest(trace(login, call, served), null)).toBeUndefined();
  });

  it('recognises the SPS root by new semantic-convention tags too', () => {
    const root = span({ id: 'r', name: 'POST', kind: 'server', service: 'shellgrade-gateway', start: 0, end: 10, tags: { 'http.request.method': 'POST', 'url.path': '/api/exercise-production' } });
    expect(breakdownRequest(trace(root), null)?.rootService).toBe('shellgrade-gateway');
  });
});
