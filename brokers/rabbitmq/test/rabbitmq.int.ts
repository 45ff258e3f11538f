/**
 * RabbitMQ dispatch against the real RabbitMQ and PostgreSQL started by
 * `bash infra/bin/servers up postgres rabbitmq`: sync request/reply, async, the bound (503),
 * poison messages, kill -9 of a worker process and a broker restart under load. Every test
 * ends with the audit, counted from what the client was told: each accepted submission
 * final, no row it never asked for, none stuck. The
 * last test checks that the trace crosses the broker (broker.publish → broker.consume).
 * The scenarios are shared with the BullMQ suite (libs/dispatch/test/support/broker-scenarios).
 */
import { randomBytes } from 'node:crypto';
import type { Grader } from '@shellgrade/domain';
import { join } from 'node:path';
import { RabbitMqConnection, RabbitMqConsumer, RabbitMqDispatch } from '../src';
// The broker test support (fixture, real grader, scenarios) is shared with brokers/bullmq in libs/dispatch/test.
/* eslint-disable @nx/enforce-module-boundaries */
import { BrokerFixture } from '../../../libs/dispatch/test/support/broker-fixture';
import {
  expectKill9Recovered,
  expectOneTrace,
  expectPoisonAudit,
  expectReplyBudgetFromArrival,
  expectReplyTimeout,
  expectSyncGradedOnce,
  expectExpiredBeforeWorker,
  fillBoundedQueue,
  LOAD,
  poisonRound,
  submitAcrossRestart,
  acceptedIds,
} from '../../../libs/dispatch/test/support/broker-scenarios';
import { realGrader } from '../../../libs/dispatch/test/support/real-grader';
import { startInMemoryTracing, type InMemoryTracing } from '../../../libs/dispatch/test/support/in-memory-tracing';
import { sleep } from '../../../libs/dispatch/test/support/servers';
import { brokerSettingsEnv } from '../../../libs/dispatch/test/support/test-broker-settings';
import { deleteRabbitTopologies } from './support/rabbitmq-cleanup';

jest.setTimeout(180_000);

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://shellgrade:shellgrade@127.0.0.1:55672';
const WORKER_SCRIPT = join(__dirname, 'rabbitmq-worker.child.ts');
/** The spec's defaults: a dead broker noticed within ~10 s, a reconnection attempt every second. */
const FAST_RECONNECT = { heartbeatSeconds: 5, reconnectSeconds: 1 };

interface Rig {
  queue: string;
  connection: RabbitMqConnection;
  dispatch: RabbitMqDispatch;
  consumer?: RabbitMqConsumer;
}

let fx: BrokerFixture;
// The real sandboxed grader (bubblewrap), shared by every consumer of this file.
const grader = realGrader();
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
  replyTimeoutMs?: number;
  publishTimeoutMs?: number;
  answerBudgetMs?: number;
}): Promise<Rig> {
  const queue = opts.queue ?? queueName();
  const retries = opts.retries ?? 3;
  const connection = new RabbitMqConnection({ url: AMQP_URL, queue, maxLength: opts.maxLength ?? 1000, deliveryLimit: retries, ...FAST_RECONNECT });
  const dispatch = new RabbitMqDispatch(connection, fx.productions, fx.archives, {
    queue,
    reply: opts.reply,
    replyTimeoutMs: opts.replyTimeoutMs ?? 20_000,
    publishTimeoutMs: opts.publishTimeoutMs ?? 30_000,
    retryAfterSeconds: 3,
    answerBudgetMs: opts.answerBudgetMs,
  });
  await dispatch.ready();
  const r: Rig = { queue, connection, dispatch };
  rigs.push(r);
  if (opts.consume) await startConsumer(r, grader, { prefetch: opts.prefetch ?? 8, retries });
  return r;
}

/** The rig's consumer, grading with `g`. */
async function startConsumer(r: Rig, g: Grader, opts: { prefetch: number; retries: number }): Promise<void> {
  r.consumer = new RabbitMqConsumer(r.connection, fx.worker(g), fx.productions, {
    prefetch: opts.prefetch,
    retries: opts.retries,
    retryDelayMs: 20,
    closeGraceMs: 2_000,
    log: () => undefined,
  });
  await r.consumer.ready();
}

async function closeRig(r: Rig): Promise<void> {
  await r.consumer?.close().catch(() => undefined);
  await r.dispatch.close().catch(() => undefined);
  await r.connection.close().catch(() => undefined);
}

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
  await expectSyncGradedOnce(fx, (await rig({ reply: 'sync', consume: true })).dispatch, 'rabbitmq');
});

test('sync: a reply that does not come in time answers with the production as it stands; the job still completes', async () => {
  const r = await rig({ reply: 'sync', consume: true, replyTimeoutMs: 300 });
  await expectReplyTimeout(fx, r.dispatch, 'rabbitmq');
});

test('sync: the reply timeout counts from when the request entered the system, not from the dispatch', async () => {
  const r = await rig({ reply: 'sync', consume: true, replyTimeoutMs: 5_000 });
  await expectReplyBudgetFromArrival(fx, r.dispatch, 'rabbitmq');
});

test('deadline: a submission whose answer deadline passed while queued ends failed/expired without a sandbox, and its requester is told', async () => {
  const r = await rig({ reply: 'sync', consume: false, replyTimeoutMs: 120_000, answerBudgetMs: 30_000 });
  await expectExpiredBeforeWorker(fx, r.dispatch, 30_000, grader, (g) => startConsumer(r, g, { prefetch: 8, retries: 3 }), 'rabbitmq');
});

test('bound: a full queue refuses with 503 + Retry-After and keeps no refused production', async () => {
  const r = await rig({ reply: 'async', consume: false, maxLength: 5 });
  const { accepted, refused, stored } = await fillBoundedQueue(fx, r.dispatch, 3);

  // A quorum queue checks x-max-length before appending, so it may take one message more.
  expect(accepted.length).toBeGreaterThanOrEqual(5);
  expect(accepted.length).toBeLessThanOrEqual(6);
  expect(refused.length).toBe(12 - accepted.length);
  expect(accepted.every((x) => x.production?.status === 'queued')).toBe(true);
  expect(stored).toBe(accepted.length);

  // A consumer drains what was accepted.
  await rig({ reply: 'async', consume: true, queue: r.queue, maxLength: 5 });
  expect(await fx.waitAllFinal(20_000)).toBe(0);
  const audit = await fx.audit('rabbitmq queue-full', acceptedIds(accepted));
  console.log(`rabbitmq queue-full: accepted=${accepted.length} refused(503)=${refused.length}`);
  expect(audit).toMatchObject({ productions: accepted.length, lost: 0, unaccounted: 0, stuck: 0 });
});

test('poison: a job whose grading cannot be recorded (the database refuses it) is retried a bounded number of times, dead-lettered, marked failed', async () => {
  const r = await rig({ reply: 'sync', consume: true, retries: 2 });
  const { results } = await poisonRound(fx, r.dispatch);
  // The rejected message reached the dead-letter queue (its consumer found the production final).
  for (let i = 0; i < 50 && r.consumer!.stats.deadLettered < 1; i++) await sleep(100);
  expect(r.consumer!.stats.deadLettered).toBe(1);
  await expectPoisonAudit(fx, 'rabbitmq', results);
});

test('kill -9 of a worker process with jobs in flight: nothing lost, nothing duplicated', async () => {
  const queue = queueName();
  const env = {
    DATABASE_URL: fx.db.url,
    AMQP_URL,
    ...brokerSettingsEnv({ queue, prefetch: 8, retryDelayMs: 50 }),
  };
  await expectKill9Recovered(
    fx,
    'rabbitmq',
    { script: WORKER_SCRIPT, env },
    async () => (await rig({ reply: 'async', consume: false, queue })).dispatch,
    async (grading) => {
      const before = (await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions WHERE status = 'graded'`)).rows[0].n;
      console.log(`rabbitmq kill -9: ${grading} in flight when killed, ${before}/${LOAD} graded before the kill`);
    },
  );
});

test('RabbitMQ restart under load: publisher and consumer reconnect; every accepted sync submission answers graded, once', async () => {
  const r = await rig({ reply: 'sync', consume: true, prefetch: 2, replyTimeoutMs: 120_000, publishTimeoutMs: 60_000 });
  // Sync answers survive the restart: replies lost with the old channel fall back to reading the production.
  await submitAcrossRestart(fx, 'rabbitmq', r.dispatch, 'rabbitmq', 200);
});

test('one trace: sps → broker.publish → broker.consume (child, with queue wait)', async () => {
  const queue = queueName();
  const connection = new RabbitMqConnection({ url: AMQP_URL, queue, maxLength: 100, deliveryLimit: 1, ...FAST_RECONNECT });
  const dispatch = new RabbitMqDispatch(connection, fx.productions, fx.archives, {
    queue,
    reply: 'sync',
    replyTimeoutMs: 10_000,
    publishTimeoutMs: 10_000,
    retryAfterSeconds: 1,
  });
  const consumer = new RabbitMqConsumer(connection, fx.worker(grader), fx.productions, {
    prefetch: 1,
    retries: 1,
    retryDelayMs: 10,
    closeGraceMs: 2_000,
  });
  try {
    await dispatch.ready();
    await consumer.ready();
    await expectOneTrace(fx, tracing, dispatch, 'rabbitmq');
  } finally {
    await consumer.close();
    await dispatch.close();
    await connection.close();
  }
});
