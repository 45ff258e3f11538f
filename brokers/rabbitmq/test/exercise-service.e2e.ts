/**
 * The RabbitMQ variant end to end: two exercise-service replicas (built dist) each receive
 * SPS over HTTP and consume the work queue; the real sandboxed grader grades the paper's
 * sample answer. sync → 201 with the grade; async → 202 {ep_id, status}, then GET shows it graded.
 * Needs `npm run build` and `bash infra/bin/servers up postgres rabbitmq`.
 */
import { randomBytes } from 'node:crypto';
import { loadSamples } from '@shellgrade/grading';
// The e2e client (test/) and the broker test support (libs/dispatch/test) are shared with the other e2e tests.
/* eslint-disable @nx/enforce-module-boundaries */
import { BrowserSession, spaSubmission } from '../../../test/support/http-client';
import { BrokerFixture } from '../../../libs/dispatch/test/support/broker-fixture';
import { deleteRabbitTopologies } from './support/rabbitmq-cleanup';
import { boundRound } from '../../../libs/dispatch/test/support/bound-round';
import { seedStudents, startExerciseReplicas } from '../../../libs/dispatch/test/support/exercise-replicas';
import { spsRound } from '../../../libs/dispatch/test/support/sps-round';

jest.setTimeout(240_000);

const good = loadSamples('paper-scripts').good;

describe.each(['sync', 'async'] as const)('msa exercise service over RabbitMQ, %s reply', (reply) => {
  let fx: BrokerFixture;

  beforeAll(async () => {
    fx = await BrokerFixture.create();
  });
  afterAll(() => fx?.close());

  it('grades 12 concurrent submissions through 2 replicas, one production each', async () => {
    const users = await seedStudents(fx.db.url, 4);
    const queue = `sg.e2e.${randomBytes(4).toString('hex')}`;
    const replicas = await startExerciseReplicas([3391, 3392], {
      DATABASE_URL: fx.db.url,
      SG_DISPATCH: 'rabbitmq',
      SG_REPLY: reply,
      SG_BROKER_QUEUE: queue,
      SG_BROKER_PREFETCH: '2',
    });
    try {
      const outcome = await spsRound(replicas.urls, users, 12, (u) => spaSubmission(u.exerciseId, u.statementId, good), BrowserSession);
      expect(outcome.statuses).toEqual(Array(12).fill(reply === 'sync' ? 201 : 202));
      expect(outcome.finalGrades).toEqual(Array(12).fill(100));
      const keys = await fx.pool.query<{ submission_key: string }>('SELECT submission_key FROM exercise_productions');
      const audit = await fx.audit(`rabbitmq e2e ${reply}`, keys.rows.map((r) => r.submission_key));
      expect(audit).toMatchObject({ productions: 12, graded: 12, lost: 0, duplicated: 0, notFinal: 0 });
    } finally {
      await replicas.stop();
      await deleteRabbitTopologies(process.env.AMQP_URL ?? 'amqp://shellgrade:shellgrade@127.0.0.1:55672', [queue]);
    }
  });
});

describe('bounded queue over RabbitMQ', () => {
  let fx: BrokerFixture;

  beforeAll(async () => {
    fx = await BrokerFixture.create();
  });
  afterAll(() => fx?.close());

  it('answers 503 problem+json with Retry-After once the queue is full, and keeps only accepted productions', async () => {
    const [user] = await seedStudents(fx.db.url, 1);
    const queue = `sg.e2e.${randomBytes(4).toString('hex')}`;
    const replicas = await startExerciseReplicas([3395], {
      DATABASE_URL: fx.db.url,
      SG_DISPATCH: 'rabbitmq',
      SG_REPLY: 'async',
      SG_BROKER_QUEUE: queue,
      SG_BROKER_QUEUE_BOUND: '3',
      SG_BROKER_RETRY_AFTER_S: '7',
      SG_BROKER_CONSUME: 'false',
    });
    try {
      const out = await boundRound(replicas.urls[0], user, 8, spaSubmission(user.exerciseId, user.statementId, good));
      const accepted = out.statuses.filter((s) => s === 202).length;
      console.log(`rabbitmq e2e bound 3: statuses ${out.statuses.join(',')}`);
      expect(accepted).toBeGreaterThanOrEqual(3);
      expect(accepted).toBeLessThanOrEqual(4);
      expect(out.statuses.slice(accepted)).toEqual(Array(8 - accepted).fill(503));
      expect(out.retryAfter.slice(accepted)).toEqual(Array(8 - accepted).fill('7'));
      expect(out.contentTypes[7]).toMatch(/application\/problem\+json/);
      const { rows } = await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions`);
      expect(rows[0].n).toBe(accepted);
    } finally {
      await replicas.stop();
      await deleteRabbitTopologies(process.env.AMQP_URL ?? 'amqp://shellgrade:shellgrade@127.0.0.1:55672', [queue]);
    }
  });
});
