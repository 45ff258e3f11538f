/**
 * dispatch: pipeline against the real RabbitMQ and PostgreSQL started by
 * `bash infra/bin/servers up postgres rabbitmq`, with the real sandboxed grader: the shared
 * broker scenarios (sync once, reply timeout, poison → dead letter), a message the broker
 * dead-letters itself (marked failed by the dead-letter consumer), filters scaled apart on
 * separate workers, and the trace of one submission as one tree across the three queues.
 * Every test ends with the audit counted from what the client was told.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { connect } from 'amqplib';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ATTR, withSpan } from '@shellgrade/telemetry';
import { filterQueue, PIPELINE_FILTERS, pipelineFilters, type PipelineFilterName } from '@shellgrade/pipeline-filters';
import type { ArchiveValidator } from '@shellgrade/domain';
import { validateArchive } from '@shellgrade/grading';
import { RabbitMqConnection, rabbitMqDispatch, RabbitMqPipelineWorkers } from '../src';
/* eslint-disable @nx/enforce-module-boundaries */
import { archiveBoundsOf, graderSchema, httpSchema } from '@shellgrade/variant';
import { BrokerFixture } from '../../dispatch/test/support/broker-fixture';
import {
  acceptedIds,
  expectKill9Recovered,
  expectPoisonAudit,
  expectReplyTimeout,
  expectSyncGradedOnce,
  poisonRound,
  submitMany,
} from '../../dispatch/test/support/broker-scenarios';
import { GOOD_ANSWER, realGrader } from '../../dispatch/test/support/real-grader';
import { startInMemoryTracing, type InMemoryTracing } from '../../dispatch/test/support/in-memory-tracing';
import { sleep } from '../../dispatch/test/support/servers';
import { brokerSettingsEnv } from '../../dispatch/test/support/test-broker-settings';
import { deleteRabbitTopologies } from './support/rabbitmq-cleanup';

jest.setTimeout(180_000);

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://shellgrade:shellgrade@127.0.0.1:55672';
const WORKER_SCRIPT = join(__dirname, 'pipeline-worker.child.ts');
const ALL: Partial<Record<PipelineFilterName, { prefetch: number }>> = { check: { prefetch: 4 }, grade: { prefetch: 4 }, record: { prefetch: 8 } };

/** The spec's archive bounds, as the services bind the validator. */
const bounds = archiveBoundsOf({ http: httpSchema.parse({}), grader: graderSchema.parse({}) });
const validator: ArchiveValidator = { validate: async (bytes) => void (await validateArchive(bytes, bounds)) };

interface Rig {
  connection: RabbitMqConnection;
  dispatch: ReturnType<typeof rabbitMqDispatch>;
  workers?: RabbitMqPipelineWorkers;
}

let fx: BrokerFixture;
const grader = realGrader();
let tracing: InMemoryTracing;
const rigs: Rig[] = [];
const queues: string[] = [];

function prefixName(): string {
  const prefix = `sg.test.pipe.${randomBytes(4).toString('hex')}`;
  queues.push(...PIPELINE_FILTERS.map((f) => filterQueue(prefix, f)));
  return prefix;
}

/** A process of dispatch pipeline: its connection and publisher, and the workers of the filters in `run` (none: publish only). */
async function rig(opts: { prefix: string; reply: 'sync' | 'async'; run?: typeof ALL; retries?: number; replyTimeoutMs?: number }): Promise<Rig> {
  const retries = opts.retries ?? 3;
  const entry = filterQueue(opts.prefix, 'check');
  const connection = new RabbitMqConnection({ url: AMQP_URL, queue: entry, maxLength: 1000, deliveryLimit: retries, heartbeatSeconds: 5, reconnectSeconds: 1 });
  const dispatch = rabbitMqDispatch(connection, fx.productions, fx.archives, {
    queue: entry,
    reply: opts.reply,
    replyTimeoutMs: opts.replyTimeoutMs ?? 30_000,
    publishTimeoutMs: 30_000,
    retryAfterSeconds: 3,
  });
  await dispatch.ready();
  const filters = pipelineFilters({ context: fx.context, productions: fx.productions, archives: fx.archives, validator, grader });
  const workers = opts.run
    ? new RabbitMqPipelineWorkers(connection, filters, fx.productions, {
        prefix: opts.prefix,
        run: opts.run,
        retries,
        retryDelayMs: 20,
        publishTimeoutMs: 30_000,
        closeGraceMs: 2_000,
        log: () => undefined,
      })
    : undefined;
  await workers?.ready();
  const r = { connection, dispatch, workers };
  rigs.push(r);
  return r;
}

beforeAll(async () => {
  tracing = startInMemoryTracing();
  fx = await BrokerFixture.create();
});

afterAll(async () => {
  for (const r of rigs) {
    await r.workers?.close().catch(() => undefined);
    await r.dispatch.close().catch(() => undefined);
    await r.connection.close().catch(() => undefined);
  }
  await deleteRabbitTopologies(AMQP_URL, queues);
  await fx?.close();
  tracing?.stop();
});

afterEach(async () => {
  await fx.productions.deleteAll();
});

test('sync: concurrent submissions go through check → grade → record and answer with the stored grade; a redelivery changes nothing', async () => {
  const r = await rig({ prefix: prefixName(), reply: 'sync', run: ALL });
  await expectSyncGradedOnce(fx, r.dispatch, 'pipeline');
  for (const filter of PIPELINE_FILTERS) expect(r.workers!.consumers[filter]!.stats.acked).toBeGreaterThanOrEqual(24);
});

test('sync: a reply that does not come in time answers with the production as it stands; the pipeline still completes it', async () => {
  const r = await rig({ prefix: prefixName(), reply: 'sync', run: ALL, replyTimeoutMs: 300 });
  await expectReplyTimeout(fx, r.dispatch, 'pipeline');
});

test('poison: a grading that fails every time is retried a bounded number of times in the grade filter, dead-lettered, and the student reads why', async () => {
  const r = await rig({ prefix: prefixName(), reply: 'sync', run: ALL, retries: 2 });
  const { results, poisoned } = await poisonRound(fx, r.dispatch);
  expect(poisoned.failureReason).toMatch(/^grading-failed: gave up after 3 attempts in the grade filter, last error .*refuses to record the grading/);
  const grade = r.workers!.consumers.grade!;
  // The rejected message reached the grade filter's dead-letter queue (its consumer found the production final).
  for (let i = 0; i < 50 && grade.stats.deadLettered < 1; i++) await sleep(100);
  expect(grade.stats).toMatchObject({ retried: 2, deadLettered: 1, deadLetterMarkedFailed: 0 });
  await expectPoisonAudit(fx, 'pipeline', results);
});

test("a message the broker dead-letters itself (a consumer that keeps dropping it) is marked failed by the filter's dead-letter consumer", async () => {
  const prefix = prefixName();
  const retries = 2;
  const publisher = await rig({ prefix, reply: 'async', retries });
  const [submitted] = await submitMany(fx, publisher.dispatch, 1);
  expect(submitted!.production?.status).toBe('queued');
  // No filter worker yet: a bare consumer drops the check message until the broker gives up on it.
  expect(await dropUntilDeadLettered(filterQueue(prefix, 'check'))).toBe(retries + 1);
  const { workers } = await rig({ prefix, reply: 'async', run: { check: { prefetch: 1 } }, retries });
  expect(await fx.waitAllFinal(30_000)).toBe(0);
  expect(await fx.productions.findById(submitted!.production!.id)).toMatchObject({
    status: 'failed',
    failureReason: expect.stringMatching(/^grading-failed: dead-lettered in the check filter \(delivery_limit\) after \d+ deliveries$/),
  });
  expect(workers!.consumers.check!.stats).toMatchObject({ acked: 0, deadLettered: 1, deadLetterMarkedFailed: 1 });
  const audit = await fx.audit('pipeline broker dead letter', acceptedIds([submitted!]));
  expect(audit).toMatchObject({ accepted: 1, productions: 1, lost: 0, unaccounted: 0, stuck: 0, failed: 1 });
});

test('filters scale apart: one worker runs check and record, two others only grade; every accepted submission graded once', async () => {
  const prefix = prefixName();
  const publisher = await rig({ prefix, reply: 'async' });
  const ends = await rig({ prefix, reply: 'async', run: { check: { prefetch: 4 }, record: { prefetch: 8 } } });
  const graders = [await rig({ prefix, reply: 'async', run: { grade: { prefetch: 2 } } }), await rig({ prefix, reply: 'async', run: { grade: { prefetch: 2 } } })];
  const results = await submitMany(fx, publisher.dispatch, 24);
  expect(results.filter((x) => x.error)).toEqual([]);
  expect(await fx.waitAllFinal(120_000)).toBe(0);
  expect(Object.keys(ends.workers!.consumers)).toEqual(['check', 'record']);
  expect(ends.workers!.consumers.check!.stats.acked).toBe(24);
  expect(ends.workers!.consumers.record!.stats.acked).toBe(24);
  const graded = graders.map((g) => g.workers!.consumers.grade!.stats.acked);
  expect(graded[0] + graded[1]).toBe(24);
  console.log(`pipeline scaled apart: grade acked per worker ${graded.join(' + ')}`);
  const audit = await fx.audit('pipeline scaled apart', acceptedIds(results));
  expect(audit).toMatchObject({ accepted: 24, productions: 24, lost: 0, unaccounted: 0, stuck: 0, graded: 24 });
});

test('kill -9 of a pipeline worker process with messages in its filters: nothing lost, nothing duplicated', async () => {
  const prefix = prefixName();
  const env = { DATABASE_URL: fx.db.url, AMQP_URL, ...brokerSettingsEnv({ queue: prefix, prefetch: 4, retryDelayMs: 50 }) };
  await expectKill9Recovered(
    fx,
    'pipeline',
    { script: WORKER_SCRIPT, env },
    async () => (await rig({ prefix, reply: 'async' })).dispatch,
    async (grading) => console.log(`pipeline kill -9: ${grading} in the grade filter when killed`),
  );
});

test('one trace: sps → publish(check) → consume(check) → publish(grade) → consume(grade) → publish(record) → consume(record)', async () => {
  const prefix = prefixName();
  const r = await rig({ prefix, reply: 'sync', run: ALL });
  const service = fx.submissions(r.dispatch);
  const production = await withSpan('test.pipeline.sps', {}, () =>
    service.submit({ ...fx.seeded, archive: GOOD_ANSWER, submissionKey: randomBytes(8).toString('hex') }),
  );
  expect(production.status).toBe('graded');

  const spans = tracing.spans();
  const root = spans.find((s) => s.name === 'test.pipeline.sps')!;
  const inTrace = spans.filter((s) => s.spanContext().traceId === root.spanContext().traceId);
  const child = (parent: ReadableSpan, name: string, queue: string) =>
    inTrace.find((s) => s.name === name && s.parentSpanContext?.spanId === parent.spanContext().spanId && s.attributes[ATTR.queue] === queue);
  let parent = root;
  for (const filter of PIPELINE_FILTERS) {
    const queue = filterQueue(prefix, filter);
    const publish = child(parent, 'broker.publish', queue);
    expect([filter, publish?.name]).toEqual([filter, 'broker.publish']);
    const consume = child(publish!, 'broker.consume', queue);
    expect([filter, consume?.attributes[ATTR.productionId]]).toEqual([filter, production.id]);
    expect(typeof consume!.attributes[ATTR.queueWaitMs]).toBe('number');
    parent = consume!;
  }
});

/**
 * A consumer that dies on every delivery (requeues it unsettled), as a crashing worker would,
 * until the broker dead-letters the message itself (delivery limit spent). Returns the
 * deliveries it saw; fails if nothing reached `<queue>.dead` within `maxPolls`.
 */
async function dropUntilDeadLettered(queue: string, maxPolls = 200): Promise<number> {
  const connection = await connect(AMQP_URL);
  try {
    const ch = await connection.createChannel();
    let deliveries = 0;
    await ch.consume(queue, (msg) => {
      if (!msg) return;
      deliveries++;
      ch.nack(msg, false, true);
    });
    const deadLetters = async () => (await ch.checkQueue(`${queue}.dead`)).messageCount;
    for (let i = 0; i < maxPolls && (await deadLetters()) < 1; i++) await sleep(50);
    expect(await deadLetters()).toBe(1);
    return deliveries;
  } finally {
    await connection.close();
  }
}
