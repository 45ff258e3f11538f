/**
 * Inline grading dies with its process: the sweeper finds what such a process left received or
 * grading and grades it once (real PostgreSQL, real sandboxed grader). Young productions — a
 * live process may still be grading them — are left alone.
 */
import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import { InterruptedGradingSweeper } from '../src';
import { BrokerFixture } from './support/broker-fixture';
import { GOOD_ANSWER, realGrader } from './support/real-grader';

jest.setTimeout(120_000);

let fx: BrokerFixture;
beforeAll(async () => {
  fx = await BrokerFixture.create();
});
afterAll(() => fx?.close());

/** A production as a process leaves it when killed mid-grading: stored, status `status`, created `ageS` ago. */
async function leftBehind(status: 'received' | 'grading', ageS: number): Promise<number> {
  const { production } = await fx.productions.create({
    ...fx.seeded,
    submissionKey: randomUUID(),
    archiveSize: GOOD_ANSWER.length,
    archiveSha256: createHash('sha256').update(GOOD_ANSWER).digest('hex'),
    status: 'received',
  });
  await fx.archives.put(production.id, GOOD_ANSWER);
  if (status === 'grading') await fx.productions.setStatus(production.id, 'grading');
  await fx.pool.query(`UPDATE exercise_productions SET created_at = now() - make_interval(secs => $2) WHERE id = $1`, [production.id, ageS]);
  return production.id;
}

test('productions a dead process left received or grading are graded once; young ones are left to their process', async () => {
  const stuckGrading = await leftBehind('grading', 120);
  const stuckReceived = await leftBehind('received', 120);
  const young = await leftBehind('grading', 1);
  const sweeper = new InterruptedGradingSweeper(fx.productions, fx.worker(realGrader()), { staleAfterMs: 60_000, everyMs: 60_000, batch: 20, log: () => undefined });

  expect(await sweeper.sweep()).toBe(2);
  for (const id of [stuckGrading, stuckReceived]) expect(await fx.productions.findById(id)).toMatchObject({ status: 'graded', grade: 100 });
  expect((await fx.productions.findById(young))?.status).toBe('grading');
  const gradedAt = (await fx.productions.findById(stuckGrading))?.gradedAt;

  // A second pass finds nothing more to do and regrades nothing.
  expect(await sweeper.sweep()).toBe(0);
  expect((await fx.productions.findById(stuckGrading))?.gradedAt).toEqual(gradedAt);
  await sweeper.stop();
});
