/**
 * The contract of a queue dispatch: one suite, run against each broker's transport on the real
 * servers (`npm run servers -- up postgres redis rabbitmq`) with the real sandboxed grader, by
 * libs/broker-rabbitmq/test/rabbitmq-transport.int.ts and libs/broker-bullmq/test/bullmq-transport.int.ts
 * (each names its broker's rigs; the suite cannot import the brokers, which import the queue
 * dispatch). What a student is told and what is stored must not depend on which broker carries
 * the grading.
 *   sync          concurrent submissions answer graded; a redelivery / duplicate job id regrades nothing
 *   reply timeout a reply that does not come in time answers with the production as it stands,
 *                 counted from the request's arrival; the job still completes
 *   deadline      a submission whose answer deadline passed while queued ends expired, ungraded
 *   bound         a full queue refuses with 503 + Retry-After and keeps no refused production
 *   poison        a job whose grading cannot be recorded is retried a bounded number of times,
 *                 ends in the dead letters, its production failed
 *   kill -9       a worker process dying with gradings in flight loses and duplicates nothing
 *   restart       the broker's server restarting under load: every accepted sync submission graded, once
 *   trace         sps → broker.publish → broker.consume (child, with its queue wait)
 * Every test ends with the audit, counted from what the client was told. What differs between
 * the brokers is said once per broker, in its BrokerUnderTest: how a rig is built, where dead
 * letters go, how exact the bound is. The scenarios are libs/dispatch/test/support/broker-scenarios.ts.
 */
import type { Grader } from '@shellgrade/domain';
import type { QueueDispatch } from '../../src';
// The broker test support (fixture, real grader, scenarios) is shared by the brokers in libs/dispatch/test.
/* eslint-disable @nx/enforce-module-boundaries */
import { BrokerFixture } from '../../../dispatch/test/support/broker-fixture';
import {
  acceptedIds,
  expectExpiredBeforeWorker,
  expectKill9Recovered,
  expectOneTrace,
  expectPoisonAudit,
  expectReplyBudgetFromArrival,
  expectReplyTimeout,
  expectSyncGradedOnce,
  fillBoundedQueue,
  poisonRound,
  submitAcrossRestart,
} from '../../../dispatch/test/support/broker-scenarios';
import { realGrader } from '../../../dispatch/test/support/real-grader';
import { startInMemoryTracing, type InMemoryTracing } from '../../../dispatch/test/support/in-memory-tracing';
/* eslint-enable @nx/enforce-module-boundaries */

export interface RigOptions {
  reply: 'sync' | 'async';
  consume: boolean;
  queue?: string;
  /** The queue's bound (RabbitMQ x-max-length, BullMQ waiting jobs). */
  bound?: number;
  retries?: number;
  /** Gradings one consumer holds at once (RabbitMQ prefetch, BullMQ concurrency). */
  concurrency?: number;
  replyTimeoutMs?: number;
  publishTimeoutMs?: number;
  answerBudgetMs?: number;
}

/** One publisher (and, when asked, its consumer) on one queue of the broker under test. */
export interface Rig {
  queue: string;
  dispatch: QueueDispatch;
  /** Starts consuming the rig's queue, grading with `grader`. */
  startConsumer(grader: Grader, concurrency: number): Promise<void>;
  /** Resolves once the poisoned production's message reached the dead letters. */
  deadLettered(productionId: number): Promise<void>;
  /** What the broker saw when a worker process was killed (logged). */
  inFlight(): Promise<string>;
  close(): Promise<void>;
}

export interface BrokerUnderTest {
  name: 'rabbitmq' | 'bullmq';
  /** A fresh queue name on the shared server. */
  queueName(): string;
  rig(fx: BrokerFixture, opts: RigOptions): Promise<Rig>;
  /** Messages the broker may accept beyond the bound (a quorum queue checks the length before appending). */
  boundSlack: number;
  /** The worker process the kill -9 scenario kills, and its environment. */
  worker(fx: BrokerFixture, queue: string): { script: string; env: Record<string, string> };
  /** The server the restart scenario restarts, the pause before the second half, and the publish timeout meanwhile. */
  restart: { server: 'rabbitmq' | 'redis'; pauseMs: number; publishTimeoutMs: number };
  /** Removes what the file left on the shared server. */
  cleanup(queues: string[]): Promise<void>;
}

/** The contract's tests for `broker`, in a describe block of their own. */
export function dispatchContract(broker: BrokerUnderTest): void {
  describe(`queue dispatch over ${broker.name}`, () => {
    contractTests(broker);
  });
}

function contractTests(broker: BrokerUnderTest): void {
  // The real sandboxed grader (bubblewrap), shared by every consumer of the suite.
  const grader = realGrader();
  // The real OTel SDK, in memory: the trace test checks publish → consume across the broker.
  let tracing: InMemoryTracing;
  let fx: BrokerFixture;
  const rigs: Rig[] = [];

  async function rig(opts: RigOptions): Promise<Rig> {
    const r = await broker.rig(fx, opts);
    rigs.push(r);
    if (opts.consume) await r.startConsumer(grader, opts.concurrency ?? 8);
    return r;
  }

  beforeAll(async () => {
    tracing = startInMemoryTracing();
    fx = await BrokerFixture.create();
  });

  afterAll(async () => {
    for (const r of rigs) await r.close();
    await broker.cleanup(rigs.map((r) => r.queue));
    await fx?.close();
    tracing?.stop();
  });

  afterEach(async () => {
    await fx.productions.deleteAll();
  });

  test('sync: concurrent submissions answer with the stored grade; a redelivery is not regraded', async () => {
    await expectSyncGradedOnce(fx, (await rig({ reply: 'sync', consume: true })).dispatch, broker.name);
  });

  test('sync: a reply that does not come in time answers with the production as it stands; the job still completes', async () => {
    await expectReplyTimeout(fx, (await rig({ reply: 'sync', consume: true, replyTimeoutMs: 300 })).dispatch, broker.name);
  });

  test('sync: the reply timeout counts from when the request entered the system, not from the dispatch', async () => {
    await expectReplyBudgetFromArrival(fx, (await rig({ reply: 'sync', consume: true, replyTimeoutMs: 5_000 })).dispatch, broker.name);
  });

  test('deadline: a submission whose answer deadline passed while queued ends failed/expired without a sandbox, and its requester is told', async () => {
    const r = await rig({ reply: 'sync', consume: false, replyTimeoutMs: 120_000, answerBudgetMs: 30_000 });
    await expectExpiredBeforeWorker(fx, r.dispatch, 30_000, grader, (g) => r.startConsumer(g, 8), broker.name);
  });

  test('bound: a full queue refuses with 503 + Retry-After and keeps no refused production', async () => {
    const r = await rig({ reply: 'async', consume: false, bound: 5 });
    const { accepted, refused, stored } = await fillBoundedQueue(fx, r.dispatch, 3);
    expect(accepted.length).toBeGreaterThanOrEqual(5);
    expect(accepted.length).toBeLessThanOrEqual(5 + broker.boundSlack);
    expect(refused.length).toBe(12 - accepted.length);
    expect(accepted.every((x) => x.production?.status === 'queued')).toBe(true);
    expect(stored).toBe(accepted.length);

    // A consumer drains what was accepted.
    await rig({ reply: 'async', consume: true, queue: r.queue, bound: 5 });
    expect(await fx.waitAllFinal(20_000)).toBe(0);
    const audit = await fx.audit(`${broker.name} queue-full`, acceptedIds(accepted));
    console.log(`${broker.name} queue-full: accepted=${accepted.length} refused(503)=${refused.length}`);
    expect(audit).toMatchObject({ accepted: accepted.length, productions: accepted.length, lost: 0, unaccounted: 0, stuck: 0 });
  });

  test('poison: a job whose grading cannot be recorded (the database refuses it) is retried a bounded number of times, dead-lettered, marked failed', async () => {
    const r = await rig({ reply: 'sync', consume: true, retries: 2 });
    const { results, poisoned } = await poisonRound(fx, r.dispatch);
    await r.deadLettered(poisoned.id);
    await expectPoisonAudit(fx, broker.name, results);
  });

  test('kill -9 of a worker process with jobs in flight: nothing lost, nothing duplicated', async () => {
    const queue = broker.queueName();
    let publisher: Rig | undefined;
    await expectKill9Recovered(
      fx,
      broker.name,
      broker.worker(fx, queue),
      async () => (publisher = await rig({ reply: 'async', consume: false, queue })).dispatch,
      async (grading) => console.log(`${broker.name} kill -9: ${grading} grading in the DB when killed; ${await publisher!.inFlight()}`),
    );
  });

  test('the broker server restarting under load: publisher and consumer reconnect; every accepted sync submission answers graded, once', async () => {
    const { server, pauseMs, publishTimeoutMs } = broker.restart;
    const r = await rig({ reply: 'sync', consume: true, concurrency: 2, replyTimeoutMs: 120_000, publishTimeoutMs });
    await submitAcrossRestart(fx, broker.name, r.dispatch, server, pauseMs);
  });

  test('one trace: sps → broker.publish → broker.consume (child, with queue wait)', async () => {
    const r = await rig({ reply: 'sync', consume: true, concurrency: 1, retries: 1, replyTimeoutMs: 10_000, publishTimeoutMs: 10_000 });
    await expectOneTrace(fx, tracing, r.dispatch, broker.name);
  });
}
