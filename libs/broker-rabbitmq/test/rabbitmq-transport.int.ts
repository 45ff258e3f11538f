/**
 * The RabbitMQ transport under the queue dispatch's contract (libs/broker-queue/test/support/
 * dispatch-contract.ts), on the real RabbitMQ and PostgreSQL: what is RabbitMQ's own is said
 * here — a quorum queue may take one message over its bound, a poison message ends in the
 * dead-letter queue (its consumer counts it), the worker process is rabbitmq-worker.child.ts.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { RabbitMqConnection, RabbitMqConsumer, rabbitMqDispatch } from '../src';
// The broker test support (fixture, scenarios, the contract) is shared by the brokers.
/* eslint-disable @nx/enforce-module-boundaries */
import { dispatchContract, type BrokerUnderTest } from '../../broker-queue/test/support/dispatch-contract';
import { LOAD } from '../../dispatch/test/support/broker-scenarios';
import { sleep } from '../../dispatch/test/support/servers';
import { brokerSettingsEnv } from '../../dispatch/test/support/test-broker-settings';
/* eslint-enable @nx/enforce-module-boundaries */
import { deleteRabbitTopologies } from './support/rabbitmq-cleanup';

jest.setTimeout(180_000);

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://shellgrade:shellgrade@127.0.0.1:55672';
const quiet = () => undefined;

const rabbitmq: BrokerUnderTest = {
  name: 'rabbitmq',
  queueName: () => `sg.test.${randomBytes(4).toString('hex')}`,
  boundSlack: 1,
  async rig(fx, opts) {
    const queue = opts.queue ?? this.queueName();
    const retries = opts.retries ?? 3;
    // The spec's defaults: a dead broker noticed within ~10 s, a reconnection attempt every second.
    const connection = new RabbitMqConnection({ url: AMQP_URL, queue, maxLength: opts.bound ?? 1000, deliveryLimit: retries, heartbeatSeconds: 5, reconnectSeconds: 1 });
    const dispatch = rabbitMqDispatch(connection, fx.productions, fx.archives, {
      queue,
      reply: opts.reply,
      replyTimeoutMs: opts.replyTimeoutMs ?? 20_000,
      publishTimeoutMs: opts.publishTimeoutMs ?? 30_000,
      retryAfterSeconds: 3,
      answerBudgetMs: opts.answerBudgetMs,
    });
    await dispatch.ready();
    let consumer: RabbitMqConsumer | undefined;
    return {
      queue,
      dispatch,
      async startConsumer(grader, concurrency) {
        consumer = new RabbitMqConsumer(connection, fx.worker(grader), fx.productions, { prefetch: concurrency, retries, retryDelayMs: 20, closeGraceMs: 2_000, log: quiet });
        await consumer.ready();
      },
      async deadLettered() {
        // The dead-letter consumer found the rejected message's production final.
        for (let i = 0; i < 50 && consumer!.stats.deadLettered < 1; i++) await sleep(100);
        expect(consumer!.stats.deadLettered).toBe(1);
      },
      async inFlight() {
        const { rows } = await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions WHERE status = 'graded'`);
        return `${rows[0].n}/${LOAD} graded before the kill`;
      },
      async close() {
        await consumer?.close().catch(quiet);
        await dispatch.close().catch(quiet);
        await connection.close().catch(quiet);
      },
    };
  },
  worker: (fx, queue) => ({
    script: join(__dirname, 'rabbitmq-worker.child.ts'),
    env: { DATABASE_URL: fx.db.url, AMQP_URL, ...brokerSettingsEnv({ queue, prefetch: 8, retryDelayMs: 50 }) },
  }),
  // Sync answers survive the restart: replies lost with the old channel fall back to reading the production.
  restart: { server: 'rabbitmq', pauseMs: 200, publishTimeoutMs: 60_000 },
  cleanup: (queues) => deleteRabbitTopologies(AMQP_URL, queues),
};


dispatchContract(rabbitmq);
