/**
 * BullMQ dispatch against the real Redis and PostgreSQL started by
 * `bash infra/bin/servers up postgres redis`: sync replies (job completion), async, the
 * bound (503), poison jobs, kill -9 of a worker process (stalled-job recovery) and a Redis
 * restart under load. Every test ends with the audit, counted from what the client was
 * told: each accepted submission final, no row it never asked for, none stuck. The last test checks that the trace crosses the broker.
 * The scenarios are shared with the RabbitMQ suite (libs/dispatch/test/support/broker-scenarios).
 */
import { randomBytes } from 'node:crypto';
import type { Grader } from '@shellgrade/domain';
import { join } from 'node:path';
import { BullMqConnection, BullMqDispatch, BullMqConsumer } from '../src';
// The broker test support (fixture, real grader, scenarios) is shared with brokers/rabbitmq in libs/dispatch/test.
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
  poisonRound,
  submitAcrossRestart,
  acceptedIds,
} from '../../../libs/dispatch/test/support/broker-scenarios';
import { realGrader } from '../../../libs/dispatch/test/support/real-grader';
import { startInMemoryTracing, type InMemoryTracing } from '../../../libs/dispatch/test/support/in-memory-tracing';
import { brokerSettingsEnv } from '../../../libs/dispatch/test/support/test-broker-settings';

jest.setTimeout(180_000);

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:56379';
const WORKER_SCRIPT = join(__dirname, 'bullmq-worker.child.ts');

interface Rig {
  connection: BullMqConnection;
  dispatch: BullMqDispatch;
  worker?: BullMqConsumer;
  queue: string;
}

let fx: BrokerFixture;
// The real sandboxed grader (bubblewrap), shared by every consumer of this file.
const grader = realGrader();
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
  replyTimeoutMs?: number;
  answerBudgetMs?: number;
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
    answerBudgetMs: opts.answerBudgetMs,
  });
  const r: Rig = { connection, dispatch, queue };
  rigs.push(r);
  if (opts.consume) await startWorker(r, grader, opts.concurrency ?? 8);
  return r;
}

/** The rig's consumer, grading with `g`. */
async function startWorker(r: Rig, g: Grader, concurrency: number): Promise<void> {
  r.worker = new BullMqConsumer(r.connection, fx.worker(g), fx.productions, {
    concurrency,
    lockMs: 5_000,
    stalledIntervalMs: 2_000,
    maxStalled: 2,
    sweepFailed: 100,
    log: () => undefined,
  });
  await r.worker.ready();
}

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
  await expectSyncGradedOnce(fx, (await rig({ reply: 'sync', consume: true })).dispatch, 'bullmq');
});

test('sync: a job that does not finish in time answers with the production as it stands; the job still completes', async () => {
  const r = await rig({ reply: 'sync', consume: true, replyTimeoutMs: 300 });
  await expectReplyTimeout(fx, r.dispatch, 'bullmq');
});

test('sync: the reply timeout counts from when the request entered the system, not from the dispatch', async () => {
  const r = await rig({ reply: 'sync', consume: true, replyTimeoutMs: 5_000 });
  await expectReplyBudgetFromArrival(fx, r.dispatch, 'bullmq');
});

test('deadline: a submission whose answer deadline passed while queued ends failed/expired without a sandbox, and its requester is told', async () => {
  const r = await rig({ reply: 'sync', consume: false, replyTimeoutMs: 120_000, answerBudgetMs: 30_000 });
  await expectExpiredBeforeWorker(fx, r.dispatch, 30_000, grader, (g) => startWorker(r, g, 8), 'bullmq');
});

test('bound: too many waiting jobs refuse with 503 + Retry-After and keep no refused production', async () => {
  const r = await rig({ reply: 'async', consume: false, maxWaiting: 5 });
  const { accepted, refused, stored } = await fillBoundedQueue(fx, r.dispatch, 3);

  expect(accepted).toHaveLength(5);
  expect(refused).toHaveLength(7);
  expect(stored).toBe(5);

  await rig({ reply: 'async', consume: true, queue: r.queue });
  expect(await fx.waitAllFinal(20_000)).toBe(0);
  const audit = await fx.audit('bullmq queue-full', acceptedIds(accepted));
  console.log(`bullmq queue-full: accepted=${accepted.length} refused(503)=${refused.length}`);
  expect(audit).toMatchObject({ accepted: 5, productions: 5, lost: 0, unaccounted: 0, stuck: 0 });
});

test('poison: a job whose grading cannot be recorded (the database refuses it) is retried a bounded number of times, lands in the failed set, marked failed', async () => {
  const r = await rig({ reply: 'sync', consume: true, retries: 2 });
  const { results, poisoned } = await poisonRound(fx, r.dispatch);
  const failedSet = await r.connection.queue.getFailed();
  expect(failedSet.map((j) => j.id)).toEqual([`production-${poisoned.id}`]);
  await expectPoisonAudit(fx, 'bullmq', results);
});

test('kill -9 of a worker process with jobs in flight: stalled jobs are recovered, nothing lost or duplicated', async () => {
  const queue = queueName();
  const env = {
    DATABASE_URL: fx.db.url,
    REDIS_URL,
    ...brokerSettingsEnv({ queue, prefetch: 8, retryDelayMs: 50, bullmq: { lockMs: 3000, stalledIntervalMs: 1500 } }),
  };
  let publisher: Rig | undefined;
  await expectKill9Recovered(
    fx,
    'bullmq',
    { script: WORKER_SCRIPT, env },
    async () => (publisher = await rig({ reply: 'async', consume: false, queue })).dispatch,
    async (grading) => {
      const active = await publisher!.connection.queue.getActiveCount();
      console.log(`bullmq kill -9: ${grading} grading in the DB and ${active} active jobs when the worker was killed`);
    },
  );
});

test('Redis restart under load: queue, worker and events reconnect; every accepted sync submission answers graded, once', async () => {
  const r = await rig({ reply: 'sync', consume: true, concurrency: 2, replyTimeoutMs: 120_000 });
  // Sync answers survive the restart: QueueEvents resumes the event stream after reconnecting.
  await submitAcrossRestart(fx, 'bullmq', r.dispatch, 'redis', 100);
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
  const worker = new BullMqConsumer(connection, fx.worker(grader), fx.productions, {
    concurrency: 1,
    lockMs: 5_000,
    stalledIntervalMs: 5_000,
    maxStalled: 1,
    sweepFailed: 10,
  });
  try {
    await connection.ready();
    await worker.ready();
    await expectOneTrace(fx, tracing, dispatch, 'bullmq');
  } finally {
    await worker.close();
    await connection.queue.obliterate({ force: true }).catch(() => undefined);
    await connection.close();
  }
});
