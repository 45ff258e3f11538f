/**
 * An exercise's author runs its grader on a sample archive before publishing: the same archive
 * checks and sandboxed grader a student's submission gets, nothing stored. The author sees what
 * its own grader did, the tail of its stderr included (students never do).
 *
 * Each trial holds a sandboxed grader, so trials have limits of their own: a bound on the trials
 * running at once in this process (TRIAL_ADMISSION, libs/admission's gate bound by the wiring:
 * 503 + Retry-After beyond it, before the grader runs) and a rate per author (ATTEMPT_LIMITS:
 * 429 + Retry-After). The place is taken first: a trial refused for a full house spends none of
 * the author's allowance.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ATTEMPT_LIMITS, type AttemptLimits, changeable } from '@shellgrade/auth';
import {
  type AdmissionTicket,
  ARCHIVE_VALIDATOR,
  type ArchiveValidator,
  DomainError,
  type Exercise,
  EXERCISE_REPOSITORY,
  type ExerciseRepository,
  type FeedbackItem,
  GRADER,
  type Grader,
  type SubmissionAdmission,
} from '@shellgrade/domain';
import type { Actor } from './actor';

/** How many trials run at once in one process: a gate with the submission gate's contract (the wiring binds libs/admission's). */
export type TrialAdmission = SubmissionAdmission;
export const TRIAL_ADMISSION = Symbol('TrialAdmission');

/** A trial takes seconds: when every place is taken and the gate has not measured one yet, ask the author back after a few. */
export const TRIAL_RETRY_AFTER_S = 5;
/** What of the grader's stderr the author sees (its tail: where a traceback ends). */
export const TRIAL_STDERR_SHOWN = 2_000;

export type TrialOutcome =
  | { outcome: 'graded'; grade: number; comment: FeedbackItem[] }
  | { outcome: 'grader-failed'; reason: string; details: Record<string, unknown>; graderStderr: string };

@Injectable()
export class ExerciseTrial {
  constructor(
    @Inject(EXERCISE_REPOSITORY) private readonly exercises: ExerciseRepository,
    @Inject(ARCHIVE_VALIDATOR) private readonly validator: ArchiveValidator,
    @Inject(GRADER) private readonly grader: Grader,
    @Inject(ATTEMPT_LIMITS) private readonly limits: AttemptLimits,
    @Inject(TRIAL_ADMISSION) private readonly admission: TrialAdmission,
  ) {}

  /** Grades `sample` with exercise `exerciseId`'s grader; only its author (or an admin) may, anyone else is told it does not exist. */
  async run(me: Actor, exerciseId: number, sample: Buffer): Promise<TrialOutcome> {
    const exercise = changeable(me, await this.exercises.findById(exerciseId), (e) => e.authorId, 'exercise', exerciseId);
    const ticket = this.enter();
    try {
      await this.limits.trial(me.id);
      await this.validator.validate(sample);
      return await this.grade(exercise, sample);
    } finally {
      ticket.release();
    }
  }

  /** A place, or 503 + Retry-After told in a trial's words (the gate's are a student's submission's). */
  private enter(): AdmissionTicket {
    try {
      return this.admission.enter();
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'unavailable') throw error;
      const retryAfterS = error.retryAfterSeconds ?? TRIAL_RETRY_AFTER_S;
      const running = typeof error.details.in_flight === 'number' ? `${error.details.in_flight} grader trials are` : 'grader trials are';
      throw new DomainError('unavailable', `${running} already running here: try again in ${retryAfterS} s`, { ...error.details, reason: 'trial-slots-full' }, retryAfterS);
    }
  }

  private async grade(exercise: Exercise, sample: Buffer): Promise<TrialOutcome> {
    try {
      const result = await this.grader.grade({
        exerciseId: exercise.id,
        graderScript: exercise.graderScript,
        statementHtml: exercise.statementHtml,
        questionArchive: exercise.questionArchive,
        submission: sample,
        locale: exercise.locale,
      });
      return { outcome: 'graded', grade: result.grade, comment: result.comment };
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'grading-failed') throw error;
      const stderr = (error as DomainError & { diagnostics?: { stderrTail?: unknown } }).diagnostics?.stderrTail;
      return { outcome: 'grader-failed', reason: error.message, details: error.details, graderStderr: typeof stderr === 'string' ? stderr.slice(-TRIAL_STDERR_SHOWN) : '' };
    }
  }
}
