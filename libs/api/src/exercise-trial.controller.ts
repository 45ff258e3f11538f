/**
 * POST /api/exercise-trial (multipart `file`, `ex_id`): an exercise's author runs its grader on a
 * sample archive, nothing stored (the use case, its limits and who may: ExerciseTrial). Served
 * where the grader is (monolith, exercise service), registered by ProductionApiModule beside the
 * submission it mirrors.
 */
import { Controller, HttpCode, Inject, Post, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { JsonBody } from '@shellgrade/http';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { trialFields, type TrialReplyBody } from '@shellgrade/api-contract';
import { ExerciseTrial, type TrialOutcome } from '@shellgrade/application';
import { AuthGuard, CurrentUser, Roles, type AuthenticatedUser } from '@shellgrade/auth';
import { invalid } from '@shellgrade/domain';
import { PRODUCTION_LIMITS, type ProductionLimits } from './production/production-limits';
import { tooLarge } from './production/submission-body';

/** The outcome in the API's snake_case. */
const trialView = (ex_id: number, t: TrialOutcome): TrialReplyBody =>
  t.outcome === 'graded'
    ? { ex_id, outcome: t.outcome, grade: t.grade, comment: t.comment }
    : { ex_id, outcome: t.outcome, reason: t.reason, details: t.details, grader_stderr: t.graderStderr };

@ApiTags('exercise-trial')
@Controller(['api/exercise-trial', 'api/exercise-trials'])
@UseGuards(AuthGuard)
export class ExerciseTrialController {
  constructor(
    private readonly trials: ExerciseTrial,
    @Inject(PRODUCTION_LIMITS) private readonly limits: ProductionLimits,
  ) {}

  @Post()
  @HttpCode(200)
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: "Run an exercise's grader on a sample archive (its author only); nothing is stored" })
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(FileInterceptor('file'))
  async trial(@CurrentUser() me: AuthenticatedUser, @JsonBody() body: unknown, @UploadedFile() file: { buffer: Buffer } | undefined) {
    const { ex_id } = trialFields.parse(body ?? {});
    if (!file) throw invalid('multipart body has no `file` part (the sample archive)');
    if (file.buffer.length > this.limits.maxArchiveBytes) throw tooLarge(file.buffer.length, this.limits.maxArchiveBytes);
    return trialView(ex_id, await this.trials.run(me, ex_id, file.buffer));
  }
}
