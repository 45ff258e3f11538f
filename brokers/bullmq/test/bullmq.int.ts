/**
 * BullMQ dispatch against the real Redis and PostgreSQL started by
 * `bash infra/bin/servers up postgres redis`: sync replies (job completion), async, the
 * bound (503), poison jobs, kill -9 of a worker process (stalled-job recovery) and a Redis
 * restart under load. Every test ends with the audit: each accepted submission has exactly
 * one production, final. The last test checks that the trace crosses the broker.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DomainError } from '@shellgrade/domain';
import { ATTR, withSpan } from '@shellgrade/telemetry';
import { BullMqConnection, BullMqDispatch, BullMqGradingWorker } from '../src/core';
// The broker test support (fixture, fake grader, child processes) is shared with brokers/rabbitmq in libs/dispatch/test.
/* eslint-disable @nx/enforce-module-boundaries */
import { BrokerFixture } from '../../../libs/dispatch/test/support/broker-fixture';
import { spawnWorker } from '../../../libs/dispatch/test/support/child-process';
import { FakeGrader, POISON } from '../../../libs/dispatch/test/support/fake-grader';
import { brokerHops, startInMemoryTracing, type InMemoryTracing } from '../../../libs/dispatch/test/support/in-memory-tracing';
import { restartServer, sleep } from '../../../libs/dispatch/test/support/servers';

jest.setTimeout(180_000);

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:56379';
const WORKER_SCRIPT = join(__dirname, 'bullmq-worker.child.ts');
const LOAD = 40;

interface Rig {
  connection: BullMqConnection;
  dispatch: BullMqDispatch;
  worker?: BullMqGradingWorker;
  grader: FakeGrader;
  queue: string;
}

let fx: BrokerFixture;
// The real OTel SDK, in memory: the trace test checks publish → consume across the broker.
let tracing: InMemoryTracing;
const rigs: Rig[] = [];

const queueName = () => `sg-test-${randomBytes(4).toString('hex')}`;

async function rig(opts: {
  reply: 'sync' | 'async';
  consume: boolean;
  queue?: string;
  maxWaiting?: number;
  retries?: number;
  concurrency?: number;
  delayMs?: number;
  replyTimeoutMs?: number;
}): Promise<Rig> {
  const queue = opts.queue ?? queueName();
  const connection = new BullMqConnection({
    url: REDIS_URL,
    queue,
    retries: opts.retries ?? 3,
    retryDelayMs: 20,
    keepCompleted: 100,
    keepFailed: 100,
    log: () => undefined,
  });
  await connection.ready();
  const dispatch = new BullMqDispatch(connection, fx.productions, fx.archives, {
    reply: opts.reply,
    maxWaiting: opts.maxWaiting ?? 1000,
    replyTimeoutMs: opts.replyTimeoutMs ?? 20_000,
    publishTimeoutMs: 30_000,
    retryAfterSeconds: 3,
  });
  const grader = new FakeGrader(opts.delayMs ?? 30);
  const worker = opts.consume
    ? new BullMqGradingWorker(connection, fx.worker(grader), fx.productions, {
        concurrency: opts.concurrency ?? 8,
        lockMs: 5_000,
        stalledIntervalMs: 2_000,
        maxStalled: 2,
        sweepFailed: 100,
        log: () => undefined,
      })
    : undefined;
  await worker?.ready();
  const r = { connection, dispatch, worker, grader, queue };
  rigs.push(r);
  return r;
}

const archive = (i: number) => Buffer.from(`submission-${i}-${randomBytes(4).toString('hex')}`);

beforeAll(async () => {
  tracing = startInMemoryTracing();
  fx = await BrokerFixture.create();
});

afterAll(async () => {
  for (const r of rigs) {
    await r.worker?.close().catch(() => undefined);
    // Leave no test queue behind on the shared Redis.
    await r.connection.queue.obliterate({ force: true }).catch(() => undefined);
    await r.connection.close();
  }
  await fx?.close();
  tracing?.stop();
});

afterEach(async () => {
  await fx.productions.deleteAll();
});

test('sync: concurrent submissions answer with the stored grade; a duplicate job id is not regraded', async () => {
  const r = await rig({ reply: 'sync', consume: true });
  const service = fx.submissions(r.dispatch);
  const results = await Promise.all(Array.from({ length: LOAD }, (_, i) => fx.submit(service, archive(i))));

  expect(results.filter((x) => x.error)).toEqual([]);
  expect(results.map((x) => x.production?.status)).toEqual(Array(LOAD).fill('graded'));

  const first = results[0].production!;
  const again = await r.dispatch.dispatch({ productionId: first.id });
  expect(again.status).toBe('graded');
  expect(again.gradedAt).toEqual(first.gradedAt);
  expect(Math.max(...r.grader.calls.values())).toBe(1);

  const audit = await fx.audit('bullmq sync', results.map((x) => x.key));
  expect(audit).toMatchObject({ accepted: LOAD, lost: 0, duplicated: 0, notFinal: 0, graded: LOAD });
});

test('sync: a job that does not finish in time answers with the production as it stands; the job still completes', async () => {
  const r = await rig({ reply: 'sync', consume: true, delayMs: 1_500, replyTimeoutMs: 300 });
  const service = fx.submissions(r.dispatch);
  const started = Date.now();
  const { key, production } = await fx.submit(service, archive(0));
  expect(Date.now() - started).toBeLessThan(1_400);
  expect(['queued', 'grading']).toContain(production?.status);
  expect(await fx.waitAllFinal(20_000)).toBe(0);
  const audit = await fx.audit('bullmq sync-timeout', [key]);
  expect(audit).toMatchObject({ lost: 0, duplicated: 0, notFinal: 0, graded: 1 });
});

test('bound: too many waiting jobs refuse with 503 + Retry-After and keep no refused production', async () => {
  const r = await rig({ reply: 'async', consume: false, maxWaiting: 5 });
  const service = fx.submissions(r.dispatch);
  const results = [];
  for (let i = 0; i < 12; i++) results.push(await fx.submit(service, archive(i)));
  const accepted = results.filter((x) => x.production);
  const refused = results.filter((x) => x.error);

  expect(accepted).toHaveLength(5);
  expect(refused).toHaveLength(7);
  for (const { error } of refused) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('unavailable');
    expect((error as DomainError).retryAfterSeconds).toBe(3);
  }
  const { rows } = await fx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM exercise_productions');
  expect(rows[0].n).toBe(5);

  await rig({ reply: 'async', consume: true, queue: r.queue });
  expect(await fx.waitAllFinal(20_000)).toBe(0);
  const audit = await fx.audit('bullmq queue-full', accepted.map((x) => x.key));
  console.log(`bullmq queue-full: accepted=${accepted.length} refused(503)=${refused.length}`);
  expect(audit).toMatchObject({ accepted: 5, productions: 5, lost: 0, duplicated: 0, notFinal: 0 });
});

test('poison: a grader that crashes on one archive is retried a bounded number of times, lands in the failed set, marked failed', async () => {
  const r = await rig({ reply: 'sync', consume: true, retries: 2 });
  const service = fx.submissions(r.dispatch);
  const archives = Array.from({ length: 30 }, (_, i) => (i === 7 ? Buffer.concat([POISON, archive(i)]) : archive(i)));
  const results = await Promise.all(archives.map((a) => fx.submit(service, a)));

  const poisoned = results[7].production!;
  expect(poisoned.status).toBe('failed');
  expect(poisoned.failureReason).toMatch(/gave up after 3 attempts.*simulated grader crash/);
  expect(r.grader.calls.get(archives[7].toString('utf8'))).toBe(3);
  const failedSet = await r.connection.queue.getFailed();
  expect(failedSet.map((j) => j.id)).toEqual([`production-${poisoned.id}`]);

  const audit = await fx.audit('bullmq poison', results.map((x) => x.key));
  expect(audit).toMatchObject({ accepted: 30, lost: 0, duplicated: 0, notFinal: 0, graded: 29, failed: 1 });
});

test('kill -9 of a worker process with jobs in flight: stalled jobs are recovered, nothing lost or duplicated', async () => {
  const queue = queueName();
  const env = {
    DATABASE_URL: fx.db.url,
    REDIS_URL,
    SG_BROKER_QUEUE: queue,
    SG_BROKER_PREFETCH: '8',
    SG_BROKER_RETRY_DELAY_MS: '50',
    SG_BROKER_LOCK_MS: '3000',
    SG_BROKER_STALLED_INTERVAL_MS: '1500',
    FAKE_GRADE_DELAY_MS: '400',
  };
  const first = spawnWorker(WORKER_SCRIPT, env);
  await first.ready;
  const r = await rig({ reply: 'async', consume: false, queue });
  const service = fx.submissions(r.dispatch);
  const results = await Promise.all(Array.from({ length: LOAD }, (_, i) => fx.submit(service, archive(i))));
  expect(results.filter((x) => x.error)).toEqual([]);
  expect(results.every((x) => x.production?.status === 'queued')).toBe(true);

  let grading = 0;
  for (let i = 0; i < 100 && grading < 4; i++) {
    await sleep(50);
    grading = (await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions WHERE status = 'grading'`)).rows[0].n;
  }
  expect(grading).toBeGreaterThan(0);
  await first.kill9();
  const active = await r.connection.queue.getActiveCount();
  console.log(`bullmq kill -9: ${grading} grading in the DB and ${active} active jobs when the worker was killed`);

  const second = spawnWorker(WORKER_SCRIPT, env);
  try {
    await second.ready;
    expect(await fx.waitAllFinal(60_000)).toBe(0);
  } finally {
    await second.stop();
  }
  const audit = await fx.audit('bullmq kill-9', results.map((x) => x.key));
  expect(audit).toMatchObject({ accepted: LOAD, lost: 0, duplicated: 0, notFinal: 0, graded: LOAD });
});

test('Redis restart under load: queue, worker and events reconnect; every accepted sync submission answers graded, once', async () => {
  const r = await rig({ reply: 'sync', consume: true, delayMs: 200, concurrency: 2, replyTimeoutMs: 120_000 });
  const service = fx.submissions(r.dispatch);
  const firstHalf = Promise.all(Array.from({ length: LOAD / 2 }, (_, i) => fx.submit(service, archive(i))));
  // Restart once jobs are queued and in flight.
  const notFinal = async () => (await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions WHERE status NOT IN ('graded', 'failed')`)).rows[0].n;
  for (let i = 0; i < 60 && (await notFinal()) < 8; i++) await sleep(50);
  const pendingAtRestart = await notFinal();
  const restart = restartServer('redis');
  await sleep(100);
  const secondHalf = Promise.all(Array.from({ length: LOAD / 2 }, (_, i) => fx.submit(service, archive(LOAD + i))));
  const restartMs = await restart;
  const results = [...(await firstHalf), ...(await secondHalf)];
  const accepted = results.filter((x) => x.production);
  const refused = results.filter((x) => x.error);
  for (const { error } of refused) expect((error as DomainError).kind).toBe('unavailable');
  // Sync answers survive the restart: QueueEvents resumes the event stream after reconnecting.
  expect(accepted.map((x) => x.production?.status)).toEqual(accepted.map(() => 'graded'));
  console.log(`bullmq restart: took ${restartMs} ms; ${pendingAtRestart} productions not final when it began; accepted=${accepted.length} refused(503)=${refused.length}`);

  expect(await fx.waitAllFinal(90_000)).toBe(0);
  const audit = await fx.audit('bullmq restart', accepted.map((x) => x.key));
  expect(audit).toMatchObject({ lost: 0, duplicated: 0, notFinal: 0 });
  expect(accepted.length).toBeGreaterThan(LOAD / 2);
});

test('one trace: sps → broker.publish → broker.consume (child, with queue wait)', async () => {
  const connection = new BullMqConnection({
    url: REDIS_URL,
    queue: queueName(),
    retries: 1,
    retryDelayMs: 10,
    keepCompleted: 10,
    keepFailed: 10,
  });
  const dispatch = new BullMqDispatch(connection, fx.productions, fx.archives, {
    reply: 'sync',
    maxWaiting: 100,
    replyTimeoutMs: 10_000,
    publishTimeoutMs: 10_000,
    retryAfterSeconds: 1,
  });
  const worker = new BullMqGradingWorker(connection, fx.worker(new FakeGrader(20)), fx.productions, {
    concurrency: 1,
    lockMs: 5_000,
    stalledIntervalMs: 5_000,
    maxStalled: 1,
    sweepFailed: 10,
  });
  try {
    await connection.ready();
    await worker.ready();
    const service = fx.submissions(dispatch);
    const production = await withSpan('test.sps', {}, () =>
      service.submit({ ...fx.seeded, archive: Buffer.from('traced'), submissionKey: randomBytes(8).toString('hex') }),
    );
    expect(production.status).toBe('graded');

    const { root, publish, consume } = brokerHops(tracing.spans(), 'test.sps');
    expect(root).toBeDefined();
    expect(publish?.parentSpanContext?.spanId).toBe(root!.spanContext().spanId);
    expect(consume?.parentSpanContext?.spanId).toBe(publish!.spanContext().spanId);
    expect(consume?.attributes['messaging.system']).toBe('bullmq');
    expect(consume?.attributes[ATTR.productionId]).toBe(production.id);
    const wait = consume?.attributes[ATTR.queueWaitMs];
    expect(typeof wait).toBe('number');
    console.log(`bullmq trace: queue wait ${String(wait)} ms, consume ${consume!.duration[1] / 1e6} ms`);
  } finally {
    await worker.close();
    await connection.queue.obliterate({ force: true }).catch(() => undefined);
    await connection.close();
  }
});
