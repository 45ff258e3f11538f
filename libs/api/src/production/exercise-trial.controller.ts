/**
 * POST /api/exercise-trial (multipart `file`, `ex_id`): an exercise's author runs its grader on
 * a sample archive before publishing — the same archive checks and sandboxed grader a student's
 * submission gets, nothing stored. Served where the grader is (monolith, exercise service).
 * The author sees what its own grader did, stderr included (students never do: issue 22).
 */
import { Body, Controller, HttpCode, Inject, Post, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, changeable, CurrentUser, Roles, type AuthenticatedUser } from '@shellgrade/auth';
import { ARCHIVE_VALIDATOR, DomainError, GRADER, invalid, type ArchiveValidator, type Grader } from '@shellgrade/domain';
import { PgExerciseRepository } from '@shellgrade/persistence';
import { z } from 'zod';
import { idParam } from '../admin/schemas';
import { PRODUCTION_LIMITS, type ProductionLimits } from './production-limits';
import { tooLarge } from './submission-body';

const trialFields = z.object({ ex_id: idParam });
/** What of the grader's stderr the author sees (its tail: where a traceback ends). */
const STDERR_SHOWN = 2_000;

@ApiTags('exercise-trial')
@Controller(['api/exercise-trial', 'api/exercise-trials'])
@UseGuards(AuthGuard)
export class ExerciseTrialController {
  constructor(
    private readonly exercises: PgExerciseRepository,
    @Inject(ARCHIVE_VALIDATOR) private readonly validator: ArchiveValidator,
    @Inject(GRADER) private readonly grader: Grader,
    @Inject(PRODUCTION_LIMITS) private readonly limits: ProductionLimits,
  ) {}

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
    await this.validator.validate(file.buffer);
    try {
      const result = await this.grader.grade({
        exerciseId: exercise.id,
        graderScript: exercise.graderScript,
        statementHtml: exercise.statementHtml,
        questionArchive: exercise.questionArchive,
        submission: file.buffer,
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
