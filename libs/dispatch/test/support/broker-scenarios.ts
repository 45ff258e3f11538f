/**
 * The fault and reply scenarios both broker integration suites run against their real
 * broker, with the same expectations: each suite builds its broker's parts (its "rig") and
 * adds its broker-specific checks around these.
 */
import { randomBytes } from 'node:crypto';
import { DomainError, type GradingDispatch } from '@shellgrade/domain';
import { ATTR, withSpan } from '@shellgrade/telemetry';
import type { BrokerFixture } from './broker-fixture';
import { spawnWorker } from './child-process';
import type { FakeGrader } from './fake-grader';
import { brokerHops, type InMemoryTracing } from './in-memory-tracing';
import { restartServer, sleep } from './servers';

/** Concurrent submissions of the load scenarios. */
export const LOAD = 40;

export const archive = (i: number) => Buffer.from(`submission-${i}-${randomBytes(4).toString('hex')}`);

type Submitted = Awaited<ReturnType<BrokerFixture['submit']>>;

/** `n` concurrent submissions of distinct archives (numbered from `from`). */
export function submitMany(fx: BrokerFixture, dispatch: GradingDispatch, n: number, from = 0): Promise<Submitted[]> {
  const service = fx.submissions(dispatch);
  return Promise.all(Array.from({ length: n }, (_, i) => fx.submit(service, archive(from + i))));
}

const countProductions = async (fx: BrokerFixture, where = 'true') =>
  (await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions WHERE ${where}`)).rows[0].n;

/** Sync: LOAD concurrent submissions answer graded; dispatching a graded production again does not regrade it. */
export async function expectSyncGradedOnce(fx: BrokerFixture, r: { dispatch: GradingDispatch; grader: FakeGrader }, label: string) {
  const results = await submitMany(fx, r.dispatch, LOAD);

  expect(results.filter((x) => x.error)).toEqual([]);
  expect(results.map((x) => x.production?.status)).toEqual(Array(LOAD).fill('graded'));

  // The first production dispatched again (a duplicate delivery / job id): not regraded.
  const first = results[0].production!;
  const again = await r.dispatch.dispatch({ productionId: first.id });
  expect(again.status).toBe('graded');
  expect(again.gradedAt).toEqual(first.gradedAt);
  expect(Math.max(...r.grader.calls.values())).toBe(1);

  const audit = await fx.audit(`${label} sync`, results.map((x) => x.key));
  expect(audit).toMatchObject({ accepted: LOAD, lost: 0, duplicated: 0, notFinal: 0, graded: LOAD });
}

/** Sync with a reply timeout (300 ms) shorter than the grading (1.5 s): answers in time, the job still completes. */
export async function expectReplyTimeout(fx: BrokerFixture, dispatch: GradingDispatch, label: string) {
  const service = fx.submissions(dispatch);
  const started = Date.now();
  const { key, production } = await fx.submit(service, archive(0));
  expect(Date.now() - started).toBeLessThan(1_400);
  expect(['queued', 'grading']).toContain(production?.status);
  expect(await fx.waitAllFinal(20_000)).toBe(0);
  const audit = await fx.audit(`${label} sync-timeout`, [key]);
  expect(audit).toMatchObject({ lost: 0, duplicated: 0, notFinal: 0, graded: 1 });
}

/**
 * Sync with a 5 s reply timeout, for a request that entered the system 4.8 s ago (queued in a
 * proxy): only the remaining 0.2 s is waited, so the answer stays inside the callers' timeouts.
 */
export async function expectReplyBudgetFromArrival(fx: BrokerFixture, dispatch: GradingDispatch, label: string) {
  const service = fx.submissions(dispatch);
  const started = Date.now();
  const { key, production } = await fx.submit(service, archive(0), started - 4_800);
  expect(Date.now() - started).toBeLessThan(1_200);
  expect(['queued', 'grading']).toContain(production?.status);
  expect(await fx.waitAllFinal(20_000)).toBe(0);
  const audit = await fx.audit(`${label} sync-budget`, [key]);
  expect(audit).toMatchObject({ lost: 0, duplicated: 0, notFinal: 0, graded: 1 });
}

/** 12 sequential submissions to a bounded queue nobody consumes; the accepted and refused ones. */
export async function fillBoundedQueue(fx: BrokerFixture, dispatch: GradingDispatch, retryAfterSeconds: number) {
  const service = fx.submissions(dispatch);
  const results = [];
  for (let i = 0; i < 12; i++) results.push(await fx.submit(service, archive(i)));
  const accepted = results.filter((x) => x.production);
  const refused = results.filter((x) => x.error);
  for (const { error } of refused) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('unavailable');
    expect((error as DomainError).retryAfterSeconds).toBe(retryAfterSeconds);
  }
  return { accepted, refused, stored: await countProductions(fx) };
}

/** 30 submissions, the 8th of them poison (retries = 2): it alone fails, after 3 gradings. */
export async function poisonRound(fx: BrokerFixture, r: { dispatch: GradingDispatch; grader: FakeGrader }, poison: Buffer) {
  const service = fx.submissions(r.dispatch);
  const archives = Array.from({ length: 30 }, (_, i) => (i === 7 ? Buffer.concat([poison, archive(i)]) : archive(i)));
  const results = await Promise.all(archives.map((a) => fx.submit(service, a)));

  const poisoned = results[7].production!;
  expect(poisoned.status).toBe('failed');
  expect(poisoned.failureReason).toMatch(/gave up after 3 attempts.*simulated grader crash/);
  expect(r.grader.calls.get(archives[7].toString('utf8'))).toBe(3);
  return { results, poisoned };
}

export async function expectPoisonAudit(fx: BrokerFixture, label: string, results: Submitted[]) {
  const audit = await fx.audit(`${label} poison`, results.map((x) => x.key));
  expect(audit).toMatchObject({ accepted: 30, lost: 0, duplicated: 0, notFinal: 0, graded: 29, failed: 1 });
}

/**
 * kill -9 of a worker process (`script`, configured by `env`) holding jobs in flight; a second
 * worker process finishes the queue: nothing lost, nothing duplicated. `publisher` is the
 * (non-consuming) dispatch of the same queue; `onKilled` logs what the broker saw.
 */
export async function expectKill9Recovered(
  fx: BrokerFixture,
  label: string,
  worker: { script: string; env: Record<string, string> },
  publisher: () => Promise<GradingDispatch>,
  onKilled: (grading: number) => Promise<void>,
) {
  const first = spawnWorker(worker.script, worker.env);
  await first.ready;
  const results = await submitMany(fx, await publisher(), LOAD);
  expect(results.filter((x) => x.error)).toEqual([]);
  expect(results.every((x) => x.production?.status === 'queued')).toBe(true);

  // Wait until the worker holds jobs in flight, then kill it without any chance to clean up.
  let grading = 0;
  for (let i = 0; i < 100 && grading < 4; i++) {
    await sleep(50);
    grading = await countProductions(fx, `status = 'grading'`);
  }
  expect(grading).toBeGreaterThan(0);
  await first.kill9();
  await onKilled(grading);

  const second = spawnWorker(worker.script, worker.env);
  try {
    await second.ready;
    expect(await fx.waitAllFinal(60_000)).toBe(0);
  } finally {
    await second.stop();
  }
  const audit = await fx.audit(`${label} kill-9`, results.map((x) => x.key));
  expect(audit).toMatchObject({ accepted: LOAD, lost: 0, duplicated: 0, notFinal: 0, graded: LOAD });
}

/**
 * Sync submissions while the broker server restarts: half before (restart once ≥ 8 are not
 * final), half while it goes down and comes back. Refusals may only be 503s; every accepted
 * submission answers graded.
 */
export async function submitAcrossRestart(
  fx: BrokerFixture,
  label: string,
  dispatch: GradingDispatch,
  server: 'rabbitmq' | 'redis',
  pauseMs: number,
) {
  const service = fx.submissions(dispatch);
  const firstHalf = Promise.all(Array.from({ length: LOAD / 2 }, (_, i) => fx.submit(service, archive(i))));
  // Restart once jobs are queued and in flight.
  const notFinal = () => countProductions(fx, `status NOT IN ('graded', 'failed')`);
  for (let i = 0; i < 60 && (await notFinal()) < 8; i++) await sleep(50);
  const pendingAtRestart = await notFinal();
  const restart = restartServer(server);
  await sleep(pauseMs);
  // The second half is submitted while the broker is going down / coming back.
  const secondHalf = Promise.all(Array.from({ length: LOAD / 2 }, (_, i) => fx.submit(service, archive(LOAD + i))));
  const restartMs = await restart;
  const results = [...(await firstHalf), ...(await secondHalf)];
  const accepted = results.filter((x) => x.production);
  const refused = results.filter((x) => x.error);
  for (const { error } of refused) expect((error as DomainError).kind).toBe('unavailable');
  expect(accepted.map((x) => x.production?.status)).toEqual(accepted.map(() => 'graded'));
  console.log(
    `${label} restart: took ${restartMs} ms; ${pendingAtRestart} productions not final when it began; accepted=${accepted.length} refused(503)=${refused.length}`,
  );

  expect(await fx.waitAllFinal(90_000)).toBe(0);
  const audit = await fx.audit(`${label} restart`, accepted.map((x) => x.key));
  expect(audit).toMatchObject({ lost: 0, duplicated: 0, notFinal: 0 });
  expect(accepted.length).toBeGreaterThan(LOAD / 2);
  return { accepted, audit };
}

/** One traced SPS: sps → broker.publish → broker.consume (child, with queue wait), `system` on the consume span. */
export async function expectOneTrace(fx: BrokerFixture, tracing: InMemoryTracing, dispatch: GradingDispatch, system: string) {
  const service = fx.submissions(dispatch);
  const production = await withSpan('test.sps', {}, () =>
    service.submit({ ...fx.seeded, archive: Buffer.from('traced'), submissionKey: randomBytes(8).toString('hex') }),
  );
  expect(production.status).toBe('graded');

  const { root, publish, consume } = brokerHops(tracing.spans(), 'test.sps');
  expect(root).toBeDefined();
  expect(publish?.parentSpanContext?.spanId).toBe(root!.spanContext().spanId);
  expect(consume?.parentSpanContext?.spanId).toBe(publish!.spanContext().spanId);
  expect(consume?.attributes['messaging.system']).toBe(system);
  expect(consume?.attributes[ATTR.productionId]).toBe(production.id);
  const wait = consume?.attributes[ATTR.queueWaitMs];
  expect(typeof wait).toBe('number');
  console.log(`${system} trace: queue wait ${String(wait)} ms, consume ${consume!.duration[1] / 1e6} ms`);
}
