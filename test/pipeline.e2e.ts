// e2e-variants: msa-pipeline-1-2
/**
 * Paper 003's pipes and filters on the real application: msa-pipeline-1-2 through
 * the launcher, real services, RabbitMQ, grader and PostgreSQL. Scenario R answers as on its
 * baseline msa-rabbitmq-1-2; a poison submission — one whose grading crashes every time (the
 * database refuses to record that it started: a trigger installed for this test's keys) — is
 * retried a bounded number of times, dead-lettered by the grade filter, and its student reads
 * why: the SPS answer and the production both say failed with the reason. Nothing is lost:
 * counted from what the client was told, every accepted submission is final.
 */
import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import { Pool } from 'pg';
import { loadSamples } from '@shellgrade/grading';
import { loadConnections, loadVariant, pipelineFilters } from '@shellgrade/variant';
// The audit is the broker tests' one: counted from what the client was told.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { accountFor } from '../libs/dispatch/test/support/accounting';
import { BrowserSession, spaSubmission } from './support/http-client';
import { runScenarioR, type SeededUser } from './support/scenario-r';
import { seed, variantUp, type VariantStatus } from './support/stack';

jest.setTimeout(600_000);

const db = new Pool({ connectionString: loadConnections().DATABASE_URL, max: 2 });
const paper = loadSamples('paper-scripts');
const POISON = 'pipeline-e2e-poison-';
let variant: VariantStatus;
let users: SeededUser[];

beforeAll(async () => {
  variant = await variantUp('msa-pipeline-1-2');
  users = await seed(4);
  // Every attempt to record that a poison production started grading fails, as a broken dependency would.
  await db.query(`
    CREATE OR REPLACE FUNCTION sg_e2e_pipeline_poison() RETURNS trigger AS $$
    BEGIN
      RAISE EXCEPTION 'the database refuses to record the grading of production %', NEW.id;
    END $$ LANGUAGE plpgsql;
    DROP TRIGGER IF EXISTS sg_e2e_pipeline_poison ON exercise_productions;
    CREATE TRIGGER sg_e2e_pipeline_poison BEFORE UPDATE ON exercise_productions FOR EACH ROW
      WHEN (NEW.status = 'grading' AND NEW.submission_key LIKE '%:${POISON}%') EXECUTE FUNCTION sg_e2e_pipeline_poison();`);
});
afterAll(async () => {
  await db.query('DROP TRIGGER IF EXISTS sg_e2e_pipeline_poison ON exercise_productions; DROP FUNCTION IF EXISTS sg_e2e_pipeline_poison()');
  await db.end();
});

async function loggedIn(u: SeededUser): Promise<BrowserSession> {
  const session = new BrowserSession(variant.entry);
  expect((await session.request('POST', '/api/user/login', { email: u.email, password: u.password })).status).toBe(200);
  return session;
}

describe('pipes and filters (msa-pipeline-1-2)', () => {
  it('runs check, grade and record as separate consumers, one per filter on each exercise replica', async () => {
    const exercise = variant.processes.filter((p) => p.role === 'exercise');
    expect(exercise.map((p) => p.status)).toEqual(['online', 'online']);
    const { broker } = loadVariant('msa-pipeline-1-2');
    const connection = await amqplib.connect(loadConnections().AMQP_URL);
    try {
      const channel = await connection.createChannel();
      for (const filter of pipelineFilters) {
        // Each filter's queue: <broker.queue>.<filter> (libs/pipeline-filters filterQueue).
        const { consumerCount } = await channel.checkQueue(`${broker.queue}.${filter}`);
        expect([filter, consumerCount]).toEqual([filter, exercise.length]);
      }
    } finally {
      await connection.close();
    }
  });

  it('passes scenario R for 4 users concurrently, grades stored', async () => {
    const outcomes = await Promise.all(users.map((u) => runScenarioR(variant.entry, u, paper.good)));
    for (const o of outcomes) {
      expect(o.statuses).toEqual([200, 200, 201, 200, 401]);
      const { rows } = await db.query('SELECT status, grade FROM exercise_productions WHERE id = $1', [o.epId]);
      expect(rows[0]).toMatchObject({ status: 'graded', grade: 100 });
    }
  });

  it('a grading that crashes every time ends failed with a readable reason for the student, after bounded retries and the dead-letter queue; the others are graded', async () => {
    const [u, other] = [users[0]!, users[1]!];
    const [session, otherSession] = [await loggedIn(u), await loggedIn(other)];
    const submit = (s: BrowserSession, who: SeededUser, key: string) =>
      s.request('POST', '/api/exercise-production', spaSubmission(who.exerciseId, who.statementId, paper.good), { 'Idempotency-Key': key });

    const keys = [`${POISON}${randomUUID()}`, randomUUID()];
    const [poison, good] = await Promise.all([submit(session, u, keys[0]!), submit(otherSession, other, keys[1]!)]);

    // The SPS answer names the production and why it failed (problem+json, grading-failed).
    expect(poison.status).toBe(500);
    const problem = poison.body as { ep_id: number; reason: string };
    expect(problem.reason).toMatch(/^grading-failed: gave up after 4 attempts in the grade filter, last error .*refuses to record the grading/);
    expect(problem.reason).not.toMatch(/\/(tmp|work|home|var)\//);
    expect(good.status).toBe(201);

    // What the student reads back later: the same production, failed, with the same reason.
    const read = await session.request('GET', `/api/exercise-production/${problem.ep_id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'failed', failure_reason: problem.reason });

    // Nothing lost, nothing duplicated, nothing stuck: the rows of the two keys sent are the two accepted ids, final.
    const accepted = [problem.ep_id, (good.body as { ep_id: number }).ep_id];
    const { rows } = await db.query<{ id: number; submission_key: string; status: string }>(
      'SELECT id, submission_key, status FROM exercise_productions WHERE submission_key = ANY($1)',
      [[`${u.userId}:${keys[0]}`, `${other.userId}:${keys[1]}`]],
    );
    expect(accountFor(accepted, [], rows)).toMatchObject({ accepted: 2, productions: 2, graded: 1, failed: 1, lost: 0, unaccounted: 0, stuck: 0 });
  });
});
