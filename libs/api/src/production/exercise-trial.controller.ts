/**
 * POST /api/exercise-trial (multipart `file`, `ex_id`): an exercise's author runs its grader on
 * a sample archive before publishing — the same archive checks and sandboxed grader a student's
 * submission gets, nothing stored. Served where the grader is (monolith, exercise service).
 * The author sees what its own grader did, stderr included (students never do: issue 22).
 * Each trial runs a sandboxed grader, so it has limits of its own (issue 34 item 8): a slot budget
 * per process (spec auth.rateLimits.trialsInFlight: 503 + Retry-After beyond it) and a rate per
 * author (trialsPerAuthor: 429 + Retry-After).
 */
import { Body, Controller, HttpCode, Inject, Post, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ATTEMPT_LIMITS, AUTH_CONFIG, AuthGuard, changeable, CurrentUser, Roles, type AttemptLimits, type AuthConfig, type AuthenticatedUser } from '@shellgrade/auth';
import { ARCHIVE_VALIDATOR, type ArchiveValidator, DomainError, type Exercise, EXERCISE_REPOSITORY, type ExerciseRepository, GRADER, type Grader, invalid } from '@shellgrade/domain';
import { z } from 'zod';
import { idParam } from '../admin/schemas';
import { PRODUCTION_LIMITS, type ProductionLimits } from './production-limits';
import { tooLarge } from './submission-body';

const trialFields = z.object({ ex_id: idParam });
/** What of the grader's stderr the author sees (its tail: where a traceback ends). */
const STDERR_SHOWN = 2_000;
/** A trial takes seconds: when every slot is taken, ask the author back after a few. */
const TRIAL_RETRY_AFTER_S = 5;

/** The trials running at once in this process: each holds a sandboxed grader. */
class TrialSlots {
  private running = 0;

  constructor(private readonly max: number) {}

  /** A slot, or 503 + Retry-After when all are taken; the returned function frees it. */
  take(): () => void {
    if (this.running >= this.max) {
      throw new DomainError('unavailable', `${this.running} grader trials are already running here: try again in ${TRIAL_RETRY_AFTER_S} s`, { reason: 'trial-slots-full' }, TRIAL_RETRY_AFTER_S);
    }
    this.running++;
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.running--;
    };
  }
}

@ApiTags('exercise-trial')
@Controller(['api/exercise-trial', 'api/exercise-trials'])
@UseGuards(AuthGuard)
export class ExerciseTrialController {
  private readonly slots: TrialSlots;

  constructor(
    @Inject(EXERCISE_REPOSITORY) private readonly exercises: ExerciseRepository,
    @Inject(ARCHIVE_VALIDATOR) private readonly validator: ArchiveValidator,
    @Inject(GRADER) private readonly grader: Grader,
    @Inject(PRODUCTION_LIMITS) private readonly limits: ProductionLimits,
    @Inject(ATTEMPT_LIMITS) private readonly rateLimits: AttemptLimits,
    @Inject(AUTH_CONFIG) auth: AuthConfig,
  ) {
    this.slots = new TrialSlots(auth.rateLimits.trialsInFlight);
  }

  @Post()
  @HttpCode(200)
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: "Run an exercise's grader on a sample archive (its author only); nothing is stored" })
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(FileInterceptor('file'))
  async trial(@CurrentUser() me: AuthenticatedUser, @Body() body: unknown, @UploadedFile() file: { buffer: Buffer } | undefined) {
    const { ex_id } = trialFields.parse(body ?? {});
    if (!file) throw invalid('multipart body has no `file` part (the sample archive)');
    if (file.buffer.length > this.limits.maxArchiveBytes) throw tooLarge(file.buffer.length, this.limits.maxArchiveBytes);
    const exercise = changeable(me, await this.exercises.findById(ex_id), (e) => e.authorId, 'exercise', ex_id);
    // The slot first: a trial refused for a full house (503) spends none of the author's allowance.
    const freeSlot = this.slots.take();
    try {
      await this.rateLimits.trial(me.id);
      return await this.run(ex_id, exercise, file.buffer);
    } finally {
      freeSlot();
    }
  }

  private async run(ex_id: number, exercise: Exercise, sample: Buffer) {
    await this.validator.validate(sample);
    try {
      const result = await this.grader.grade({
        exerciseId: exercise.id,
        graderScript: exercise.graderScript,
        statementHtml: exercise.statementHtml,
        questionArchive: exercise.questionArchive,
        submission: sample,
        locale: exercise.locale,
      });
      return { ex_id, outcome: 'graded', grade: result.grade, comment: result.comment };
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'grading-failed') throw error;
      const stderr = (error as DomainError & { diagnostics?: { stderrTail?: unknown } }).diagnostics?.stderrTail;
      return {
        ex_id,
        outcome: 'grader-failed',
        reason: error.message,
        details: error.details,
        grader_stderr: typeof stderr === 'string' ? stderr.slice(-STDERR_SHOWN) : '',
      };
    }
  }
}
