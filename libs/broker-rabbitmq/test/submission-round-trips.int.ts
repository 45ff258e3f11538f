/**
 * The PostgreSQL statements one submission costs, counted from the pg client:
 * every statement the services send on their pool, against the real PostgreSQL and RabbitMQ and
 * the real sandboxed grader. The submission side and the grading consumer share this process,
 * so the count is the whole submission's, as `databaseRoundTrips` counts it from a trace (the
 * services' authentication read excepted: it is the HTTP layer's, not the use case's).
 *
 * With archives in PostgreSQL (storage: postgres) the archive is written with the production's
 * row (behind a broker already 'queued': stored whole, about to be published; inline already
 * 'grading': this request grades it) and read with it
 * by the worker, which takes the production for grading in that same read:
 *   RabbitMQ, sync reply: context, insert (with the archive, queued) | take (context, archive, 'grading'), outcome
 *   inline:               context, insert (with the archive, grading), outcome
 * A redelivery of a graded production costs one statement and no grading.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { GradingWorker, SubmissionService, type ArchiveValidator, type Grader } from '@shellgrade/domain';
import { validateArchive } from '@shellgrade/grading';
import { RabbitMqConnection, RabbitMqConsumer, rabbitMqDispatch } from '../src';
/* eslint-disable @nx/enforce-module-boundaries */
import { archiveBoundsOf, graderSchema, httpSchema } from '@shellgrade/variant';
import { InlineDispatch } from '../../dispatch/src/inline-dispatch';
import { BrokerFixture } from '../../dispatch/test/support/broker-fixture';
import { GOOD_ANSWER, realGrader } from '../../dispatch/test/support/real-grader';
import { createPool, PgProductionRepository, PgSubmissionContextReader, PostgresArchiveStore } from '../../dispatch/test/support/real-libs';
import { deleteRabbitTopologies } from './support/rabbitmq-cleanup';
/* eslint-enable @nx/enforce-module-boundaries */

jest.setTimeout(120_000);

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://shellgrade:shellgrade@127.0.0.1:55672';
const bounds = archiveBoundsOf({ http: httpSchema.parse({}), grader: graderSchema.parse({}) });
const validator: ArchiveValidator = { validate: async (bytes) => void (await validateArchive(bytes, bounds)) };

/** A pool whose every client records the statements it sends (text only), in order. */
function countingPool(url: string): { pool: Pool; statements: string[] } {
  const statements: string[] = [];
  const pool = createPool({ databaseUrl: url, size: 4, idleTimeoutMs: 30_000 });
  pool.on('connect', (client: PoolClient) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0];
      statements.push(typeof first === 'string' ? first : String((first as { text?: string }).text ?? first));
      return query(...args);
    };
  });
  return { pool, statements };
}

/** A statement by what it does, for readable expectations. */
function kindOf(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  if (/^WITH taken AS \( ?UPDATE exercise_productions SET status = 'grading'/.test(s) && /p\.archive/.test(s) && /student_statements/.test(s)) return 'take';
  if (/^SELECT .* FROM student_statements s JOIN exercises/.test(s)) return 'context';
  if (/^INSERT INTO exercise_productions .*\barchive\)/.test(s)) return 'insert+archive';
  if (/^INSERT INTO exercise_productions/.test(s)) return 'insert';
  if (/^UPDATE exercise_productions SET archive = /.test(s)) return 'archive put';
  if (/^SELECT archive, archive_sha256 FROM exercise_productions/.test(s)) return 'archive get';
  if (/^UPDATE exercise_productions SET status = \$2 WHERE id = \$1 AND status NOT IN/.test(s)) return 'status';
  if (/^UPDATE exercise_productions SET status = \$2, grade = \$3/.test(s)) return 'outcome';
  if (/^SELECT .* FROM exercise_productions p LEFT JOIN/.test(s)) return 'production+context';
  if (/^SELECT .* FROM exercise_productions WHERE id = \$1/.test(s)) return 'findById';
  return s.slice(0, 60);
}

/** One grader for the file, counted: a redelivery must not grade again. */
const sandbox = realGrader();
let gradings = 0;
const grader: Grader = { grade: (job) => (gradings++, sandbox.grade(job)) };

let fx: BrokerFixture;
let counted: ReturnType<typeof countingPool>;
const queue = `sg.test.rt.${randomBytes(4).toString('hex')}`;
/** Every RabbitMQ pipeline a test started, closed after the file. */
const pipelines: RabbitPipeline[] = [];

/** The services over the counting pool, as a composition root binds them with storage: postgres. */
function services() {
  const productions = new PgProductionRepository(counted.pool);
  const context = new PgSubmissionContextReader(counted.pool);
  const archives = new PostgresArchiveStore(counted.pool);
  return { productions, context, archives, worker: new GradingWorker(context, productions, archives, grader) };
}

interface RabbitPipeline {
  queue: string;
  dispatch: ReturnType<typeof rabbitMqDispatch>;
  close(): Promise<void>;
}

/** A sync-reply RabbitMQ dispatch and its grading consumer on `queueName`, as the exercise service and its worker bind them. */
async function rabbitPipeline(queueName: string, { productions, archives, worker }: ReturnType<typeof services>): Promise<RabbitPipeline> {
  const connection = new RabbitMqConnection({ url: AMQP_URL, queue: queueName, maxLength: 1000, deliveryLimit: 3, heartbeatSeconds: 5, reconnectSeconds: 1 });
  const dispatch = rabbitMqDispatch(connection, productions, archives, { queue: queueName, reply: 'sync', replyTimeoutMs: 60_000, publishTimeoutMs: 30_000, retryAfterSeconds: 3 });
  const consumer = new RabbitMqConsumer(connection, worker, productions, { prefetch: 1, retries: 3, retryDelayMs: 20, closeGraceMs: 2_000, log: () => undefined });
  const pipeline = {
    queue: queueName,
    dispatch,
    close: async () => {
      await consumer.close().catch(() => undefined);
      await dispatch.close().catch(() => undefined);
      await connection.close().catch(() => undefined);
    },
  };
  pipelines.push(pipeline);
  await dispatch.ready();
  await consumer.ready();
  return pipeline;
}

beforeAll(async () => {
  fx = await BrokerFixture.create();
  counted = countingPool(fx.db.url);
});

afterAll(async () => {
  for (const pipeline of pipelines) await pipeline.close();
  await deleteRabbitTopologies(AMQP_URL, pipelines.map((p) => p.queue));
  await counted?.pool.end();
  await fx?.close();
});

test('RabbitMQ, sync reply: one submission costs four statements, a redelivery of it one and no grading', async () => {
  const bound = services();
  const { productions, context, archives, worker } = bound;
  const { dispatch } = await rabbitPipeline(queue, bound);
  const submissions = new SubmissionService(context, validator, productions, archives, dispatch);

  counted.statements.length = 0;
  const production = await submissions.submit({ ...fx.seeded, archive: GOOD_ANSWER, submissionKey: randomUUID(), receivedAt: Date.now() });
  expect(production).toMatchObject({ status: 'graded', grade: 100 });
  expect(counted.statements.map(kindOf)).toEqual(['context', 'insert+archive', 'take', 'outcome']);

  // Persisted final once, with the archive the student sent.
  const { rows } = await fx.pool.query<{ status: string; grade: number; archive: Buffer }>('SELECT status, grade, archive FROM exercise_productions WHERE id = $1', [production.id]);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ status: 'graded', grade: 100 });
  expect(rows[0].archive.equals(GOOD_ANSWER)).toBe(true);

  // At-least-once: the same message delivered again finds it final in the one read, grades nothing.
  counted.statements.length = 0;
  const before = gradings;
  await expect(worker.grade(production.id)).resolves.toMatchObject({ id: production.id, status: 'graded', grade: 100 });
  expect(counted.statements.map(kindOf)).toEqual(['take']);
  expect(gradings).toBe(before);
});

test('inline: one submission costs three statements', async () => {
  const { productions, context, archives, worker } = services();
  const submissions = new SubmissionService(context, validator, productions, archives, new InlineDispatch(worker));

  counted.statements.length = 0;
  const production = await submissions.submit({ ...fx.seeded, archive: GOOD_ANSWER, submissionKey: randomUUID(), receivedAt: Date.now() });
  expect(production).toMatchObject({ status: 'graded', grade: 100 });
  expect(counted.statements.map(kindOf)).toEqual(['context', 'insert+archive', 'outcome']);
});
