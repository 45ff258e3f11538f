/**
 * Grader trials have limits of their own: a bound on the trials running at once in one process
 * (libs/admission's gate, as the wiring binds it: 503 + Retry-After beyond it, before the grader
 * runs) and a rate limit per author (429 + Retry-After). Fake repository, validator and grader
 * (unit test): the grader holds each trial until the test lets it finish, so nothing depends on timing.
 */
import { BoundedAdmission } from '@shellgrade/admission';
import { RateLimits, type AuthenticatedUser, type RateLimitConfig } from '@shellgrade/auth';
import { DomainError, type ArchiveValidator, type ExerciseRepository, type Grader, type GradingResult } from '@shellgrade/domain';
import { ExerciseTrial, TRIAL_RETRY_AFTER_S } from '../src/exercise-trial';

const teacher = (id: number): AuthenticatedUser => ({ id, email: `t${id}@x.test`, role: 'teacher', sid: 's', ver: 0 });

/** Limits wide enough never to refuse, but for what a test sets. */
function rateLimits(overrides: Partial<RateLimitConfig>): RateLimitConfig {
  const wide = { points: 1_000_000, durationS: 60 };
  return {
    enabled: true,
    store: 'memory',
    loginFailuresPerAccount: wide,
    loginFailuresPerClient: wide,
    loginFailuresPerAddress: wide,
    enrolmentKeyFailuresPerUser: wide,
    submissionsPerStudent: wide,
    trialsPerAuthor: wide,
    trialsInFlight: 2,
    ...overrides,
  };
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

/** The use case as the wiring builds it: the gate bounds trialsInFlight. */
function trialsWith(grader: Grader, limits: RateLimitConfig, validator: ArchiveValidator = { validate: async () => undefined }) {
  // Every exercise belongs to the teacher whose id it has.
  const exercises = { findById: async (id: number) => ({ id, authorId: id, graderScript: 'x', statementHtml: '', questionArchive: Buffer.from([1]), locale: 'en' }) } as unknown as ExerciseRepository;
  const gate = new BoundedAdmission({ maxInFlight: limits.trialsInFlight, fallbackRetryAfterS: TRIAL_RETRY_AFTER_S });
  const trials = new ExerciseTrial(exercises, validator, grader, new RateLimits(limits), gate);
  return { run: (me: AuthenticatedUser, exerciseId: number) => trials.run(me, exerciseId, sample), gate };
}

const sample = Buffer.from([31, 139]);

/** The refusal of a trial, or 'admitted' once its grader started (it would then wait for the test). */
function refusalOf(trial: Promise<unknown>, held: ReturnType<typeof heldGrader>): Promise<unknown> {
  const admitted = held.startedCount(held.started() + 1).then(() => 'admitted');
  return Promise.race([trial.then(() => 'admitted', (refusal: unknown) => refusal), admitted]);
}

describe('grader trial limits', () => {
  it('a trial beyond the slot budget (2 at once) gets 503 + Retry-After before its grader runs; a finished trial frees its slot', async () => {
    const held = heldGrader();
    const trials = trialsWith(held.grader, rateLimits({ trialsInFlight: 2 }));
    const first = trials.run(teacher(1), 1);
    const second = trials.run(teacher(2), 2);
    await held.startedCount(2);
    expect(await refusalOf(trials.run(teacher(3), 3), held)).toMatchObject({
      kind: 'unavailable',
      message: '2 grader trials are already running here: try again in 5 s',
      details: expect.objectContaining({ reason: 'trial-slots-full' }),
      retryAfterSeconds: TRIAL_RETRY_AFTER_S,
    });
    expect(held.started()).toBe(2);
    held.finishOne();
    await expect(first).resolves.toMatchObject({ outcome: 'graded' });
    const third = trials.run(teacher(3), 3);
    await held.startedCount(3);
    held.finishOne();
    held.finishOne();
    await expect(Promise.all([second, third])).resolves.toHaveLength(2);
  });

  it("an author's trials beyond its window get 429 + Retry-After; another author is not affected", async () => {
    const held = heldGrader();
    const trials = trialsWith(held.grader, rateLimits({ trialsPerAuthor: { points: 3, durationS: 600 }, trialsInFlight: 10 }));
    for (let i = 0; i < 3; i++) {
      const done = trials.run(teacher(1), 1);
      await held.startedCount(i + 1);
      held.finishOne();
      await expect(done).resolves.toMatchObject({ outcome: 'graded' });
    }
    expect(await refusalOf(trials.run(teacher(1), 1), held)).toMatchObject({ kind: 'rate-limited', retryAfterSeconds: expect.any(Number) });
    expect(held.started()).toBe(3);
    const other = trials.run(teacher(2), 2);
    await held.startedCount(4);
    held.finishOne();
    await expect(other).resolves.toMatchObject({ outcome: 'graded' });
  });

  it('frees the place of a trial whose archive is refused or whose author is out of allowance, and only tells the author what its own grader did', async () => {
    const held = heldGrader();
    const hostile = { validate: async () => Promise.reject(new DomainError('invalid-archive', 'an entry leaves the archive')) };
    const trials = trialsWith(held.grader, rateLimits({ trialsPerAuthor: { points: 1, durationS: 600 }, trialsInFlight: 1 }), hostile);
    await expect(trials.run(teacher(1), 1)).rejects.toMatchObject({ kind: 'invalid-archive' });
    await expect(trials.run(teacher(1), 1)).rejects.toMatchObject({ kind: 'rate-limited' });
    expect(trials.gate.snapshot().inside).toBe(0);
    await expect(trials.run(teacher(2), 1)).rejects.toMatchObject({ kind: 'not-found' });
    expect(held.started()).toBe(0);
  });
});
