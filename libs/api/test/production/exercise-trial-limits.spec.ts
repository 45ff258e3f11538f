/**
 * The grader-trial endpoint has limits of its own (issue 34 item 8): a slot budget (trials
 * running at once in one process: 503 + Retry-After beyond it, before the grader runs) and a rate
 * limit per author (429 + Retry-After). Fake repository, validator and grader (unit test): the
 * grader holds each trial until the test lets it finish, so nothing depends on timing.
 */
import { RateLimits, type AuthConfig, type AuthenticatedUser, type RateLimitConfig } from '@shellgrade/auth';
import type { ArchiveValidator, ExerciseRepository, Grader, GradingResult } from '@shellgrade/domain';
import { ExerciseTrialController } from '../../src/production/exercise-trial.controller';
import { wideRateLimits } from '../support/service-settings';

const teacher = (id: number): AuthenticatedUser => ({ id, email: `t${id}@x.test`, role: 'teacher', sid: 's', ver: 0 });

function rateLimits(overrides: Partial<RateLimitConfig>): RateLimitConfig {
  return wideRateLimits(overrides);
}

/** A grader whose gradings wait until finished one by one; `started` says how many ran. */
function heldGrader() {
  const waiting: (() => void)[] = [];
  const arrivals: (() => void)[] = [];
  let started = 0;
  const grader = {
    grade: async (): Promise<GradingResult> => {
      started++;
      for (const wake of arrivals.splice(0)) wake(); // every waiter checks its own count again
      await new Promise<void>((resolve) => waiting.push(resolve));
      return { grade: 100, comment: [] } as unknown as GradingResult;
    },
  } as unknown as Grader;
  return {
    grader,
    started: () => started,
    /** Resolves once `n` gradings have started. */
    async startedCount(n: number): Promise<void> {
      while (started < n) await new Promise<void>((resolve) => arrivals.push(resolve));
    },
    finishOne: () => waiting.shift()?.(),
  };
}

function controllerWith(grader: Grader, limits: RateLimitConfig) {
  // Every exercise belongs to the teacher whose id it has.
  const exercises = { findById: async (id: number) => ({ id, authorId: id, graderScript: 'x', statementHtml: '', questionArchive: Buffer.from([1]), locale: 'en' }) } as unknown as ExerciseRepository;
  const validator = { validate: async () => undefined } as unknown as ArchiveValidator;
  const cfg = { rateLimits: limits } as AuthConfig;
  return new ExerciseTrialController(exercises, validator, grader, { maxArchiveBytes: 1024 }, new RateLimits(limits), cfg);
}

const sample = { buffer: Buffer.from([31, 139]) };

/** The refusal of a trial, or 'admitted' once its grader started (it would then wait for the test). */
function refusalOf(trial: Promise<unknown>, held: ReturnType<typeof heldGrader>): Promise<unknown> {
  const admitted = held.startedCount(held.started() + 1).then(() => 'admitted');
  return Promise.race([trial.then(() => 'admitted', (refusal: unknown) => refusal), admitted]);
}

describe('grader trial limits', () => {
  it('a trial beyond the slot budget (2 at once) gets 503 + Retry-After before its grader runs; a finished trial frees its slot', async () => {
    const held = heldGrader();
    const trials = controllerWith(held.grader, rateLimits({ trialsInFlight: 2 }));
    const first = trials.trial(teacher(1), { ex_id: 1 }, sample);
    const second = trials.trial(teacher(2), { ex_id: 2 }, sample);
    await held.startedCount(2);
    expect(await refusalOf(trials.trial(teacher(3), { ex_id: 3 }, sample), held)).toMatchObject({
      kind: 'unavailable',
      message: expect.stringMatching(/grader trials are already running/),
      retryAfterSeconds: expect.any(Number),
    });
    expect(held.started()).toBe(2);
    held.finishOne();
    await expect(first).resolves.toMatchObject({ outcome: 'graded' });
    const third = trials.trial(teacher(3), { ex_id: 3 }, sample);
    await held.startedCount(3);
    held.finishOne();
    held.finishOne();
    await expect(Promise.all([second, third])).resolves.toHaveLength(2);
  });

  it("an author's trials beyond its window get 429 + Retry-After; another author is not affected", async () => {
    const held = heldGrader();
    const trials = controllerWith(held.grader, rateLimits({ trialsPerAuthor: { points: 3, durationS: 600 }, trialsInFlight: 10 }));
    for (let i = 0; i < 3; i++) {
      const done = trials.trial(teacher(1), { ex_id: 1 }, sample);
      await held.startedCount(i + 1);
      held.finishOne();
      await expect(done).resolves.toMatchObject({ outcome: 'graded' });
    }
    expect(await refusalOf(trials.trial(teacher(1), { ex_id: 1 }, sample), held)).toMatchObject({ kind: 'rate-limited', retryAfterSeconds: expect.any(Number) });
    expect(held.started()).toBe(3);
    const other = trials.trial(teacher(2), { ex_id: 2 }, sample);
    await held.startedCount(4);
    held.finishOne();
    await expect(other).resolves.toMatchObject({ outcome: 'graded' });
  });
});
