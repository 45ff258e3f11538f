/**
 * RabbitMQ dispatch against the real RabbitMQ and PostgreSQL started by
 * `bash infra/bin/servers up postgres rabbitmq`: sync request/reply, async, the bound (503),
 * poison messages, kill -9 of a worker process and a broker restart under load. Every test
 * ends with the audit: each accepted submission has exactly one production, final. The
 * last test checks that the trace crosses the broker (broker.publish → broker.consume).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DomainError } from '@shellgrade/domain';
import { ATTR, withSpan } from '@shellgrade/telemetry';
import { RabbitMqConnection, RabbitMqConsumer, RabbitMqDispatch } from '../src/core';
// The broker test support (fixture, fake grader, child processes) is shared with brokers/bullmq in libs/dispatch/test.
/* eslint-disable @nx/enforce-module-boundaries */
import { BrokerFixture } from '../../../libs/dispatch/test/support/broker-fixture';
import { spawnWorker } from '../../../libs/dispatch/test/support/child-process';
import { FakeGrader, POISON } from '../../../libs/dispatch/test/support/fake-grader';
import { brokerHops, startInMemoryTracing, type InMemoryTracing } from '../../../libs/dispatch/test/support/in-memory-tracing';
import { deleteRabbitTopologies } from './support/rabbitmq-cleanup';
import { restartServer, sleep } from '../../../libs/dispatch/test/support/servers';

jest.setTimeout(180_000);

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://shellgrade:shellgrade@127.0.0.1:55672';
const WORKER_SCRIPT = join(__dirname, 'rabbitmq-worker.child.ts');
const LOAD = 40;

interface Rig {
  queue: string;
  connection: RabbitMqConnection;
  dispatch: RabbitMqDispatch;
  consumer?: RabbitMqConsumer;
  grader: FakeGrader;
}

let fx: BrokerFixture;
// The real OTel SDK, in memory: the trace test checks publish → consume across the broker.
let tracing: InMemoryTracing;
const rigs: Rig[] = [];
const queues: string[] = [];

function queueName(): string {
  const q = `sg.test.${randomBytes(4).toString('hex')}`;
  queues.push(q);
  return q;
}

async function rig(opts: {
  reply: 'sync' | 'async';
  consume: boolean;
  queue?: string;
  maxLength?: number;
  retries?: number;
  prefetch?: number;
  delayMs?: number;
  replyTimeoutMs?: number;
  publishTimeoutMs?: number;
}): Promise<Rig> {
  const queue = opts.queue ?? queueName();
  const retries = opts.retries ?? 3;
  const connection = new RabbitMqConnection({ url: AMQP_URL, queue, maxLength: opts.maxLength ?? 1000, deliveryLimit: retries });
  const dispatch = new RabbitMqDispatch(connection, fx.productions, fx.archives, {
    queue,
    reply: opts.reply,
    replyTimeoutMs: opts.replyTimeoutMs ?? 20_000,
    publishTimeoutMs: opts.publishTimeoutMs ?? 30_000,
    retryAfterSeconds: 3,
  });
  await dispatch.ready();
  const grader = new FakeGrader(opts.delayMs ?? 30);
  const consumer = opts.consume
    ? new RabbitMqConsumer(connection, fx.worker(grader), fx.productions, {
        prefetch: opts.prefetch ?? 8,
        retries,
        retryDelayMs: 20,
        log: () => undefined,
      })
    : undefined;
  await consumer?.ready();
  const r = { queue, connection, dispatch, consumer, grader };
  rigs.push(r);
  return r;
}

async function closeRig(r: Rig): Promise<void> {
  await r.consumer?.close(2_000).catch(() => undefined);
  await r.dispatch.close().catch(() => undefined);
  await r.connection.close().catch(() => undefined);
}

const archive = (i: number) => Buffer.from(`submission-${i}-${randomBytes(4).toString('hex')}`);

beforeAll(async () => {
  tracing = startInMemoryTracing();
  fx = await BrokerFixture.create();
});

afterAll(async () => {
  for (const r of rigs) await closeRig(r);
  // Leave no test queues behind on the shared broker.
  await deleteRabbitTopologies(AMQP_URL, queues);
  await fx?.close();
  tracing?.stop();
});

afterEach(async () => {
  await fx.productions.deleteAll();
});

test('sync: concurrent submissions answer with the stored grade; a redelivery is acked without regrading', async () => {
  const r = await rig({ reply: 'sync', consume: true });
  const service = fx.submissions(r.dispatch);
  const results = await Promise.all(Array.from({ length: LOAD }, (_, i) => fx.submit(service, archive(i))));

  expect(results.filter((x) => x.error)).toEqual([]);
  expect(results.map((x) => x.production?.status)).toEqual(Array(LOAD).fill('graded'));

  // Publish the first production again (a duplicate delivery): acked, not regraded.
  const first = results[0].production!;
  const again = await r.dispatch.dispatch({ productionId: first.id });
  expect(again.status).toBe('graded');
  expect(again.gradedAt).toEqual(first.gradedAt);
  expect(Math.max(...r.grader.calls.values())).toBe(1);

  const audit = await fx.audit('rabbitmq sync', results.map((x) => x.key));
  expect(audit).toMatchObject({ accepted: LOAD, lost: 0, duplicated: 0, notFinal: 0, graded: LOAD });
});

test('sync: a reply that does not come in time answers with the production as it stands; the job still completes', async () => {
  const r = await rig({ reply: 'sync', consume: true, delayMs: 1_500, replyTimeoutMs: 300 });
  const service = fx.submissions(r.dispatch);
  const started = Date.now();
  const { key, production } = await fx.submit(service, archive(0));
  expect(Date.now() - started).toBeLessThan(1_400);
  expect(['queued', 'grading']).toContain(production?.status);
  expect(await fx.waitAllFinal(20_000)).toBe(0);
  const audit = await fx.audit('rabbitmq sync-timeout', [key]);
  expect(audit).toMatchObject({ lost: 0, duplicated: 0, notFinal: 0, graded: 1 });
});

test('bound: a full queue refuses with 503 + Retry-After and keeps no refused production', async () => {
  const r = await rig({ reply: 'async', consume: false, maxLength: 5 });
  const service = fx.submissions(r.dispatch);
  const results = [];
  for (let i = 0; i < 12; i++) results.push(await fx.submit(service, archive(i)));
  const accepted = results.filter((x) => x.production);
  const refused = results.filter((x) => x.error);

  // A quorum queue checks x-max-length before appending, so it may take one message more.
  expect(accepted.length).toBeGreaterThanOrEqual(5);
  expect(accepted.length).toBeLessThanOrEqual(6);
  expect(refused.length).toBe(12 - accepted.length);
  expect(accepted.every((x) => x.production?.status === 'queued')).toBe(true);
  for (const { error } of refused) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('unavailable');
    expect((error as DomainError).retryAfterSeconds).toBe(3);
  }
  const { rows } = await fx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM exercise_productions');
  expect(rows[0].n).toBe(accepted.length);

  // A consumer drains what was accepted.
  await rig({ reply: 'async', consume: true, queue: r.queue, maxLength: 5 });
  expect(await fx.waitAllFinal(20_000)).toBe(0);
  const audit = await fx.audit('rabbitmq queue-full', accepted.map((x) => x.key));
  console.log(`rabbitmq queue-full: accepted=${accepted.length} refused(503)=${refused.length}`);
  expect(audit).toMatchObject({ productions: accepted.length, lost: 0, duplicated: 0, notFinal: 0 });
});

test('poison: a grader that crashes on one archive is retried a bounded number of times, dead-lettered, marked failed', async () => {
  const r = await rig({ reply: 'sync', consume: true, retries: 2 });
  const service = fx.submissions(r.dispatch);
  const archives = Array.from({ length: 30 }, (_, i) => (i === 7 ? Buffer.concat([POISON, archive(i)]) : archive(i)));
  const results = await Promise.all(archives.map((a) => fx.submit(service, a)));

  const poisoned = results[7].production!;
  expect(poisoned.status).toBe('failed');
  expect(poisoned.failureReason).toMatch(/gave up after 3 attempts.*simulated grader crash/);
  expect(r.grader.calls.get(archives[7].toString('utf8'))).toBe(3);
  // The rejected message reached the dead-letter queue (its consumer found the production final).
  for (let i = 0; i < 50 && r.consumer!.stats.deadLettered < 1; i++) await sleep(100);
  expect(r.consumer!.stats.deadLettered).toBe(1);

  const audit = await fx.audit('rabbitmq poison', results.map((x) => x.key));
  expect(audit).toMatchObject({ accepted: 30, lost: 0, duplicated: 0, notFinal: 0, graded: 29, failed: 1 });
});

test('kill -9 of a worker process with jobs in flight: nothing lost, nothing duplicated', async () => {
  const queue = queueName();
  const env = {
    DATABASE_URL: fx.db.url,
    AMQP_URL,
    SG_BROKER_QUEUE: queue,
    SG_BROKER_PREFETCH: '8',
    SG_BROKER_RETRY_DELAY_MS: '50',
    FAKE_GRADE_DELAY_MS: '400',
  };
  const first = spawnWorker(WORKER_SCRIPT, env);
  await first.ready;
  const r = await rig({ reply: 'async', consume: false, queue });
  const service = fx.submissions(r.dispatch);
  const results = await Promise.all(Array.from({ length: LOAD }, (_, i) => fx.submit(service, archive(i))));
  expect(results.filter((x) => x.error)).toEqual([]);
  expect(results.every((x) => x.production?.status === 'queued')).toBe(true);

  // Wait until the worker holds jobs in flight, then kill it without any chance to clean up.
  let grading = 0;
  for (let i = 0; i < 100 && grading < 4; i++) {
    await sleep(50);
    grading = (await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions WHERE status = 'grading'`)).rows[0].n;
  }
  expect(grading).toBeGreaterThan(0);
  await first.kill9();
  const before = (await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions WHERE status = 'graded'`)).rows[0].n;
  console.log(`rabbitmq kill -9: ${grading} in flight when killed, ${before}/${LOAD} graded before the kill`);

  const second = spawnWorker(WORKER_SCRIPT, env);
  try {
    await second.ready;
    expect(await fx.waitAllFinal(60_000)).toBe(0);
  } finally {
    await second.stop();
  }
  const audit = await fx.audit('rabbitmq kill-9', results.map((x) => x.key));
  expect(audit).toMatchObject({ accepted: LOAD, lost: 0, duplicated: 0, notFinal: 0, graded: LOAD });
});

test('RabbitMQ restart under load: publisher and consumer reconnect; every accepted sync submission answers graded, once', async () => {
  const r = await rig({ reply: 'sync', consume: true, delayMs: 200, prefetch: 2, replyTimeoutMs: 120_000, publishTimeoutMs: 60_000 });
  const service = fx.submissions(r.dispatch);
  const firstHalf = Promise.all(Array.from({ length: LOAD / 2 }, (_, i) => fx.submit(service, archive(i))));
  // Restart once jobs are queued and in flight.
  const notFinal = async () => (await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions WHERE status NOT IN ('graded', 'failed')`)).rows[0].n;
  for (let i = 0; i < 60 && (await notFinal()) < 8; i++) await sleep(50);
  const pendingAtRestart = await notFinal();
  const restart = restartServer('rabbitmq');
  await sleep(200);
  // The second half is submitted while the broker is going down / coming back.
  const secondHalf = Promise.all(Array.from({ length: LOAD / 2 }, (_, i) => fx.submit(service, archive(LOAD + i))));
  const restartMs = await restart;
  const results = [...(await firstHalf), ...(await secondHalf)];
  const accepted = results.filter((x) => x.production);
  const refused = results.filter((x) => x.error);
  for (const { error } of refused) expect((error as DomainError).kind).toBe('unavailable');
  // Sync answers survive the restart: replies lost with the old channel fall back to reading the production.
  expect(accepted.map((x) => x.production?.status)).toEqual(accepted.map(() => 'graded'));
  console.log(`rabbitmq restart: took ${restartMs} ms; ${pendingAtRestart} productions not final when it began; accepted=${accepted.length} refused(503)=${refused.length}`);

  expect(await fx.waitAllFinal(90_000)).toBe(0);
  const audit = await fx.audit('rabbitmq restart', accepted.map((x) => x.key));
  expect(audit).toMatchObject({ lost: 0, duplicated: 0, notFinal: 0 });
  expect(audit.graded).toBeGreaterThanOrEqual(accepted.length);
  expect(accepted.length).toBeGreaterThan(LOAD / 2);
});

test('one trace: sps → broker.publish → broker.consume (child, with queue wait)', async () => {
  const queue = queueName();
  const connection = new RabbitMqConnection({ url: AMQP_URL, queue, maxLength: 100, deliveryLimit: 1 });
  const dispatch = new RabbitMqDispatch(connection, fx.productions, fx.archives, {
    queue,
    reply: 'sync',
    replyTimeoutMs: 10_000,
    publishTimeoutMs: 10_000,
    retryAfterSeconds: 1,
  });
  const consumer = new RabbitMqConsumer(connection, fx.worker(new FakeGrader(20)), fx.productions, {
    prefetch: 1,
    retries: 1,
    retryDelayMs: 10,
  });
  try {
    await dispatch.ready();
    await consumer.ready();
    const service = fx.submissions(dispatch);
    const production = await withSpan('test.sps', {}, () =>
      service.submit({ ...fx.seeded, archive: Buffer.from('traced'), submissionKey: randomBytes(8).toString('hex') }),
    );
    expect(production.status).toBe('graded');

    const { root, publish, consume } = brokerHops(tracing.spans(), 'test.sps');
    expect(root).toBeDefined();
    expect(publish?.parentSpanContext?.spanId).toBe(root!.spanContext().spanId);
    expect(consume?.parentSpanContext?.spanId).toBe(publish!.spanContext().spanId);
    expect(consume?.attributes['messaging.system']).toBe('rabbitmq');
    expect(consume?.attributes[ATTR.productionId]).toBe(production.id);
    const wait = consume?.attributes[ATTR.queueWaitMs];
    expect(typeof wait).toBe('number');
    console.log(`rabbitmq trace: queue wait ${String(wait)} ms, consume ${consume!.duration[1] / 1e6} ms`);
  } finally {
    await consumer.close(2_000);
    await dispatch.close();
    await connection.close();
  }
});
