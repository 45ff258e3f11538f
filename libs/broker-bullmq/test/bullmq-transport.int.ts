/**
 * The BullMQ transport under the queue dispatch's contract (libs/broker-queue/test/support/
 * dispatch-contract.ts), on the real Redis and PostgreSQL: what is BullMQ's own is said here —
 * the bound is counted exactly by the publisher, a poison job ends in the failed set, a dead
 * worker's jobs come back through the stalled check, the worker process is bullmq-worker.child.ts.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { BullMqConnection, BullMqConsumer, bullMqDispatch } from '../src';
// The broker test support (fixture, scenarios, the contract) is shared by the brokers.
/* eslint-disable @nx/enforce-module-boundaries */
import { dispatchContract, type BrokerUnderTest } from '../../broker-queue/test/support/dispatch-contract';
import { brokerSettingsEnv } from '../../dispatch/test/support/test-broker-settings';
/* eslint-enable @nx/enforce-module-boundaries */

jest.setTimeout(180_000);

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:56379';
const quiet = () => undefined;

const bullmq: BrokerUnderTest = {
  name: 'bullmq',
  queueName: () => `sg-test-${randomBytes(4).toString('hex')}`,
  boundSlack: 0,
  async rig(fx, opts) {
    const queue = opts.queue ?? this.queueName();
    const connection = new BullMqConnection({ url: REDIS_URL, queue, retries: opts.retries ?? 3, retryDelayMs: 20, keepCompleted: 100, keepFailed: 100, log: quiet });
    await connection.ready();
    const dispatch = bullMqDispatch(connection, fx.productions, fx.archives, {
      reply: opts.reply,
      maxWaiting: opts.bound ?? 1000,
      replyTimeoutMs: opts.replyTimeoutMs ?? 20_000,
      publishTimeoutMs: opts.publishTimeoutMs ?? 30_000,
      retryAfterSeconds: 3,
      answerBudgetMs: opts.answerBudgetMs,
    });
    let worker: BullMqConsumer | undefined;
    return {
      queue,
      dispatch,
      async startConsumer(grader, concurrency) {
        worker = new BullMqConsumer(connection, fx.worker(grader), fx.productions, { concurrency, lockMs: 5_000, stalledIntervalMs: 2_000, maxStalled: 2, sweepFailed: 100, log: quiet });
        await worker.ready();
      },
      async deadLettered(productionId) {
        const failedSet = await connection.queue.getFailed();
        expect(failedSet.map((j) => j.id)).toEqual([`production-${productionId}`]);
      },
      async inFlight() {
        return `${await connection.queue.getActiveCount()} active jobs`;
      },
      async close() {
        await worker?.close().catch(quiet);
        // Leave no test queue behind on the shared Redis.
        await connection.queue.obliterate({ force: true }).catch(quiet);
        await connection.close();
      },
    };
  },
  worker: (fx, queue) => ({
    script: join(__dirname, 'bullmq-worker.child.ts'),
    env: { DATABASE_URL: fx.db.url, REDIS_URL, ...brokerSettingsEnv({ queue, prefetch: 8, retryDelayMs: 50, bullmq: { lockMs: 3000, stalledIntervalMs: 1500 } }) },
  }),
  // Sync answers survive the restart: QueueEvents resumes the event stream after reconnecting.
  restart: { server: 'redis', pauseMs: 100, publishTimeoutMs: 30_000 },
  cleanup: async () => undefined,
};


dispatchContract(bullmq);
