import {
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Optional,
  Param,
  Post,
  Req,
  Res,
  UploadedFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiAcceptedResponse, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { idParam, productionBody, schemaRef, submissionGradedBody, submissionQueuedBody } from '@shellgrade/api-contract';
import type { Request, Response } from 'express';
import { ATTEMPT_LIMITS, AUTH_CONFIG, AuthGuard, CurrentUser, readable, TrustedProxies, type AttemptLimits, type AuthConfig, type AuthenticatedUser } from '@shellgrade/auth';
import { DomainError, GRADING_BACKLOG, isExpired, PRODUCTION_REPOSITORY, type GradingBacklog, type ProductionRepository, SubmissionService } from '@shellgrade/domain';
import { queueWaitOf, retryAfterSeconds } from '@shellgrade/refusal';
import { JsonBody, requestArrivalOf, ZodPipe } from '@shellgrade/http';
import { productionView, submissionGradedView, submissionQueuedView } from './production.view';
import { decodeMultipart, decodeSpaBody, tooLarge } from './submission-body';
import { PRODUCTION_LIMITS, type ProductionLimits } from './production-limits';

@ApiTags('exercise-production')
@Controller('api/exercise-production')
@UseGuards(AuthGuard)
export class ProductionController {
  /** Whose X-Request-Start is believed: the variant's own proxies, as for X-Forwarded-For. */
  private readonly proxies: TrustedProxies;

  constructor(
    private readonly submissions: SubmissionService,
    @Inject(PRODUCTION_REPOSITORY) private readonly productions: ProductionRepository,
    @Inject(PRODUCTION_LIMITS) private readonly limits: ProductionLimits,
    @Inject(ATTEMPT_LIMITS) private readonly rateLimits: AttemptLimits,
    @Inject(AUTH_CONFIG) auth: AuthConfig,
    @Optional() @Inject(GRADING_BACKLOG) private readonly backlog?: GradingBacklog,
  ) {
    this.proxies = new TrustedProxies(auth.trustedProxies);
  }

  @Post()
  @ApiOperation({ summary: 'Student production submission (SPS): store, grade, answer with the feedback' })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiCreatedResponse({ description: 'graded before the reply (sync variants)', schema: schemaRef(submissionGradedBody) })
  @ApiAcceptedResponse({ description: 'stored, graded later (async variants): poll GET /api/exercise-production/{ep_id}', schema: schemaRef(submissionQueuedBody) })
  // multer's limits (the archive limit) come from ProductionApiModule's MulterModule.register.
  @UseInterceptors(FileInterceptor('file'))
  async submit(
    @CurrentUser() user: AuthenticatedUser,
    @Req() req: Request,
    @Res() res: Response,
    @JsonBody() body: unknown,
    @UploadedFile() file: { buffer: Buffer } | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<void> {
    const receivedAt = Date.now();
    await this.rateLimits.submission(user.id);
    const decoded = req.is('multipart/form-data')
      ? decodeMultipart(body, file)
      : decodeSpaBody(this.requireJson(req, body), this.limits.maxArchiveBytes);
    if (decoded.archive.length > this.limits.maxArchiveBytes) {
      throw tooLarge(decoded.archive.length, this.limits.maxArchiveBytes);
    }
    const production = await this.submissions
      .submit({
        userId: user.id,
        exerciseId: decoded.exerciseId,
        statementId: decoded.statementId,
        archive: decoded.archive,
        submissionKey: idempotencyKey ? `${user.id}:${idempotencyKey.slice(0, 200)}` : undefined,
        // The answer deadline counts from here: a client's own X-Request-Start must not move it.
        receivedAt: requestArrivalOf(req, receivedAt, { proxies: this.proxies, budgetMs: this.limits.answerBudgetMs }),
      })
      .catch(async (err: unknown) => {
        // Refused by admission control (503 + Retry-After): the retry it asks for must not meet a 429.
        if (err instanceof DomainError && err.kind === 'unavailable') await this.rateLimits.refundSubmission(user.id);
        throw err;
      });
    if (production.status === 'graded') {
      res.status(201).json(submissionGradedView(production));
    } else if (isExpired(production)) {
      // Not graded: its answer deadline passed before a grader was free (overload) — a refusal, 503 + Retry-After,
      // and like any refusal it gives back its rate-limit point; a retry with the same Idempotency-Key is a new submission.
      await this.rateLimits.refundSubmission(user.id);
      const wait = await queueWaitOf(this.backlog, production.id);
      const retryAfter = retryAfterSeconds(wait?.estimatedWaitS, 5);
      throw new DomainError('unavailable', `the graders were too busy to start production ${production.id} in time; it was not graded, submit it again in ${retryAfter} s`, {
        ep_id: production.id,
        reason: 'expired',
      }, retryAfter);
    } else if (production.status === 'failed') {
      throw new DomainError('grading-failed', `grading of production ${production.id} failed`, {
        ep_id: production.id,
        reason: production.failureReason,
      });
    } else {
      // Queued: the student is told how many are ahead and about how long that is, and when to look again.
      const wait = await queueWaitOf(this.backlog, production.id);
      if (wait?.estimatedWaitS != null) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(wait.estimatedWaitS))));
      res
        .status(202)
        .location(`/api/exercise-production/${production.id}`)
        .json(submissionQueuedView(production, wait));
    }
  }

  @Get(':ep_id')
  @HttpCode(200)
  @ApiOkResponse({ schema: schemaRef(productionBody) })
  async findOne(@CurrentUser() user: AuthenticatedUser, @Param('ep_id', new ZodPipe(idParam)) id: number) {
    const production = readable(user, await this.productions.findById(id), (p) => p.userId, 'exercise production', id);
    return productionView(production);
  }

  private requireJson(req: Request, body: unknown): unknown {
    if (!req.is('application/json')) {
      throw new DomainError('validation', 'submission body must be application/json (SPA format) or multipart/form-data');
    }
    return body;
  }
}
