/**
 * The end-to-end checks of a broker variant, shared by both brokers: exercise-service
 * replicas (built dist) receive SPS over HTTP and grade through the broker with the real
 * sandboxed grader and the paper's sample answer. sync → 201 with the grade; async → 202
 * {ep_id, status}, then GET shows it graded; a bounded queue nobody consumes answers 503
 * problem+json with Retry-After. Each broker names its queues, ports and queue clean-up.
 */
import { randomBytes } from 'node:crypto';
import { loadSamples } from '@shellgrade/grading';
/* eslint-disable-next-line @nx/enforce-module-boundaries -- the browser-like e2e client (libs/http's test support) is shared by every e2e test */
import { BrowserSession, spaSubmission } from '../../../http/test/support/http-client';
import { boundRound } from './bound-round';
import { BrokerFixture } from './broker-fixture';
import { seedStudents, startExerciseReplicas } from './exercise-replicas';
import { spsRound } from './sps-round';

export interface BrokerVariant {
  /** The spec's dispatch, also the audit/log label. */
  dispatch: 'rabbitmq' | 'bullmq';
  /** Display name in the test titles. */
  name: string;
  /** Prefix of the test queue names (random suffix added). */
  queuePrefix: string;
  /** Ports of the two grading replicas and of the bounded one. */
  ports: { pair: [number, number]; bounded: number };
  /** Removes a test queue from the shared broker. */
  deleteQueue: (queue: string) => Promise<void>;
}

export function describeExerciseServiceOver(variant: BrokerVariant): void {
  const good = loadSamples('paper-scripts').good;
  const queueName = () => `${variant.queuePrefix}${randomBytes(4).toString('hex')}`;

  describe.each(['sync', 'async'] as const)(`msa exercise service over ${variant.name}, %s reply`, (reply) => {
    let fx: BrokerFixture;

    beforeAll(async () => {
      fx = await BrokerFixture.create();
    });
    afterAll(() => fx?.close());

    it('grades 12 concurrent submissions through 2 replicas, one production each', async () => {
      const users = await seedStudents(fx.db.url, 4);
      const queue = queueName();
      const replicas = await startExerciseReplicas(
        variant.ports.pair,
        { dispatch: variant.dispatch, reply, broker: { queue, prefetch: 2 } },
        { DATABASE_URL: fx.db.url },
      );
      try {
        const outcome = await spsRound(replicas.urls, users, 12, (u) => spaSubmission(u.exerciseId, u.statementId, good), BrowserSession);
        expect(outcome.statuses).toEqual(Array(12).fill(reply === 'sync' ? 201 : 202));
        expect(outcome.finalGrades).toEqual(Array(12).fill(100));
        // Loss counted against what the client was told, not against the table being checked.
        expect(outcome.epIds).toHaveLength(12);
        const audit = await fx.audit(`${variant.dispatch} e2e ${reply}`, outcome.epIds);
        expect(audit).toMatchObject({ accepted: 12, productions: 12, graded: 12, lost: 0, unaccounted: 0, stuck: 0 });
      } finally {
        await replicas.stop();
        await variant.deleteQueue(queue);
      }
    });
  });

  describe(`bounded queue over ${variant.name}`, () => {
    let fx: BrokerFixture;

    beforeAll(async () => {
      fx = await BrokerFixture.create();
    });
    afterAll(() => fx?.close());

    it('answers 503 problem+json with Retry-After once the queue is full, and keeps only accepted productions', async () => {
      const [user] = await seedStudents(fx.db.url, 1);
      // 30 gradings finished "lately" (stamped in the future so they stay in the one-minute window
      // however long the test takes): 0.5 per second, so each submission ahead is about 2 s of wait.
      const finished = await fx.pool.query(
        `INSERT INTO exercise_productions (user_id, exercise_id, statement_id, status, grade, submission_key, archive_size, archive_sha256, graded_at)
         SELECT $1, $2, $3, 'graded', 100, 'finished-lately-' || i, 1, repeat('a', 64), now() + interval '1 hour' FROM generate_series(1, 30) AS i`,
        [user.userId, user.exerciseId, user.statementId],
      );
      expect(finished.rowCount).toBe(30);
      const queue = queueName();
      const replicas = await startExerciseReplicas(
        [variant.ports.bounded],
        { dispatch: variant.dispatch, reply: 'async', broker: { queue, queueBound: 3, retryAfterS: 7, consume: false } },
        { DATABASE_URL: fx.db.url },
      );
      try {
        const out = await boundRound(replicas.urls[0], user, 8, spaSubmission(user.exerciseId, user.statementId, good));
        const accepted = out.statuses.filter((s) => s === 202).length;
        console.log(`${variant.dispatch} e2e bound 3: statuses ${out.statuses.join(',')}`);
        expect(accepted).toBeGreaterThanOrEqual(3);
        expect(accepted).toBeLessThanOrEqual(4);
        expect(out.statuses.slice(accepted)).toEqual(Array(8 - accepted).fill(503));
        // Each accepted submission is told how many wait ahead of it and about how long that is.
        expect(out.bodies.slice(0, accepted).map((b) => [b.queued_ahead, b.estimated_wait_s])).toEqual(Array.from({ length: accepted }, (_, i) => [i, 2 * i]));
        // A refused one is asked back when the backlog should have drained (not the spec's fallback of 7 s), and told why.
        expect(out.retryAfter.slice(accepted)).toEqual(Array(8 - accepted).fill(String(2 * accepted)));
        expect(out.bodies[7]).toMatchObject({ queued_ahead: accepted, estimated_wait_s: 2 * accepted });
        expect(out.bodies[7].detail).toBe(`the grading queue is full (${accepted} submissions are waiting, about ${2 * accepted} s of grading); your submission was not saved, submit it again in ${2 * accepted} s`);
        expect(out.contentTypes[7]).toMatch(/application\/problem\+json/);
        const { rows } = await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions WHERE submission_key NOT LIKE 'finished-lately-%'`);
        expect(rows[0].n).toBe(accepted);
      } finally {
        await replicas.stop();
        await variant.deleteQueue(queue);
      }
    });
  });
}
