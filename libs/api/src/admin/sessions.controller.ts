import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { businessSessionBody, listOf, schemaRef } from '@shellgrade/api-contract';
import {
  ATTEMPT_LIMITS,
  type AttemptLimits,
  AuthGuard,
  type AuthenticatedUser,
  changeable,
  CurrentUser,
  generateEnrolmentKey,
  isStaff,
  listOwner,
  MIN_ENROLMENT_KEY_LENGTH,
  Roles,
  SECRET_HASHING,
  type SecretHashing,
} from '@shellgrade/auth';
import { ENROLMENT_REPOSITORY, type EnrolmentRepository, forbidden, invalid, notFound, SESSION_REPOSITORY, type SessionRepository, STATEMENT_REPOSITORY, type StatementRepository, SUBMISSION_CONTEXT_INVALIDATION, type SubmissionContextInvalidation } from '@shellgrade/domain';
import { ZodPipe } from '@shellgrade/http';
import { z } from 'zod';
import { idParam, isoDate, nonEmpty, pageQuery } from './schemas';
import { sessionView } from './views';

const sessionFields = z.object({
  name: z.string().trim().min(1).max(200),
  sequence_id: idParam,
  starts_at: isoDate,
  ends_at: isoDate,
  enrolment_key: z.string().min(MIN_ENROLMENT_KEY_LENGTH, `at least ${MIN_ENROLMENT_KEY_LENGTH} characters`).max(200),
  teacher_id: idParam,
});
const newSessionSchema = sessionFields
  .extend({ teacher_id: idParam.optional(), enrolment_key: sessionFields.shape.enrolment_key.optional() })
  .strict()
  .refine((s) => s.ends_at >= s.starts_at, { message: 'ends_at is before starts_at', path: ['ends_at'] });
const sessionUpdateSchema = nonEmpty(sessionFields);
type SessionUpdate = z.infer<typeof sessionUpdateSchema>;
const enrolSchema = z.union([
  z.object({ enrolment_key: z.string().min(1).max(200) }).strict(),
  z.object({ user_ids: z.array(idParam).min(1).max(10_000) }).strict(),
]);

/**
 * Business sessions: staff read them all, a teacher changes (and enrols into) only the ones it
 * teaches, admins any; a student sees the sessions it is enrolled in.
 */
@ApiTags('business-sessions')
@Controller(['api/business-session', 'api/business-sessions'])
@UseGuards(AuthGuard)
export class SessionsController {
  constructor(
    @Inject(SESSION_REPOSITORY) private readonly sessions: SessionRepository,
    @Inject(ENROLMENT_REPOSITORY) private readonly enrolments: EnrolmentRepository,
    @Inject(STATEMENT_REPOSITORY) private readonly statements: StatementRepository,
    @Inject(ATTEMPT_LIMITS) private readonly limits: AttemptLimits,
    @Inject(SECRET_HASHING) private readonly secrets: SecretHashing,
    @Inject(SUBMISSION_CONTEXT_INVALIDATION) private readonly cachedContexts: SubmissionContextInvalidation,
  ) {}

  @Get()
  @ApiOkResponse({ schema: listOf(businessSessionBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(pageQuery)) q: z.infer<typeof pageQuery>) {
    const rows = await this.sessions.list({ ...q, studentId: listOwner(me, undefined) });
    return rows.map(sessionView);
  }

  @Get(':id')
  @ApiOkResponse({ schema: schemaRef(businessSessionBody) })
  async findOne(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    const staff = isStaff(me.role);
    const s = await this.sessions.findById(id);
    if (!s || (!staff && !(await this.enrolments.isEnrolled(id, me.id)))) throw notFound('business session', id);
    return sessionView(s);
  }

  @Get(':id/enrolments')
  @Roles('admin', 'teacher')
  async enrolled(@Param('id', new ZodPipe(idParam)) id: number) {
    if (!(await this.sessions.findById(id))) throw notFound('business session', id);
    return { session_id: id, user_ids: await this.enrolments.listUserIds(id) };
  }

  @Post(':id/enrolments')
  @HttpCode(200)
  @ApiOperation({ summary: 'Student: enrol with {enrolment_key}; staff: enrol {user_ids}' })
  async enrol(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(enrolSchema)) b: z.infer<typeof enrolSchema>) {
    const s = await this.sessions.findById(id);
    if (!s) throw notFound('business session', id);
    if ('user_ids' in b) {
      if (!isStaff(me.role)) throw forbidden('only staff may enrol other users');
      changeable(me, s, (row) => row.teacherId, 'business session', id);
      const enrolled = await this.enrolments.enrol(id, b.user_ids);
      await this.enrolmentsChanged(id, b.user_ids);
      return { session_id: id, enrolled };
    }
    // The point is taken before the key is checked and given back for a right key (issue 34 item 3).
    if (!(await this.limits.attemptEnrolmentKey(me.id, () => this.secrets.verifyEnrolmentKey(b.enrolment_key, s.enrolmentKeyHash)))) {
      throw invalid('wrong enrolment key');
    }
    const enrolled = await this.enrolments.enrol(id, [me.id]);
    await this.enrolmentsChanged(id, [me.id]);
    return { session_id: id, enrolled };
  }

  @Delete(':id/enrolments/:user_id')
  @ApiOperation({ summary: 'Unenrol a student (staff), or leave the session (the student itself)' })
  async unenrol(
    @CurrentUser() me: AuthenticatedUser,
    @Param('id', new ZodPipe(idParam)) id: number,
    @Param('user_id', new ZodPipe(idParam)) userId: number,
  ) {
    // A student acts on its own enrolment only; anyone else's is answered as absent (ids cannot be probed).
    if (!isStaff(me.role) && userId !== me.id) throw notFound('enrolment of user', userId);
    const s = await this.sessions.findById(id);
    if (!s) throw notFound('business session', id);
    // Staff remove other students only from a session they may change.
    if (userId !== me.id) changeable(me, s, (row) => row.teacherId, 'business session', id);
    if (!(await this.enrolments.unenrol(id, userId))) throw notFound('enrolment of user', userId);
    await this.enrolmentsChanged(id, [userId]);
    return { session_id: id, user_id: userId, unenrolled: true };
  }

  /**
   * An enrolment decides whether a statement accepts submissions: the cached submission contexts
   * of these students' statements in the session are dropped (awaited: the next submission on
   * any replica sees the change).
   */
  private async enrolmentsChanged(sessionId: number, userIds: number[]): Promise<void> {
    const ids = await this.statements.idsInSession(sessionId, userIds);
    await Promise.all(ids.map((statementId) => this.cachedContexts.statementChanged(statementId)));
  }

  @Post()
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: 'Create a session; the enrolment key (generated when omitted) is shown in this answer only' })
  @ApiCreatedResponse({ schema: schemaRef(businessSessionBody) })
  async create(@CurrentUser() me: AuthenticatedUser, @Body(new ZodPipe(newSessionSchema)) b: z.infer<typeof newSessionSchema>) {
    const key = b.enrolment_key ?? generateEnrolmentKey();
    const s = await this.sessions.create({
      name: b.name,
      sequenceId: b.sequence_id,
      startsAt: b.starts_at,
      endsAt: b.ends_at,
      enrolmentKeyHash: await this.secrets.hashEnrolmentKey(key),
      teacherId: assignedTeacher(me, b.teacher_id) ?? me.id,
    });
    return { ...sessionView(s), enrolment_key: key };
  }

  @Put(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(businessSessionBody) })
  async replace(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(sessionUpdateSchema)) b: SessionUpdate) {
    return this.update(me, id, b);
  }

  @Patch(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(businessSessionBody) })
  async update(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(sessionUpdateSchema)) b: SessionUpdate) {
    await this.ownSession(me, id);
    const teacherId = assignedTeacher(me, b.teacher_id);
    const s = await this.sessions.update(id, {
      name: b.name,
      sequenceId: b.sequence_id,
      startsAt: b.starts_at,
      endsAt: b.ends_at,
      enrolmentKeyHash: b.enrolment_key === undefined ? undefined : await this.secrets.hashEnrolmentKey(b.enrolment_key),
      teacherId,
    });
    if (!s) throw notFound('business session', id);
    return { ...sessionView(s), ...(b.enrolment_key === undefined ? {} : { enrolment_key: b.enrolment_key }) };
  }

  @Delete(':id')
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: 'Delete a session (409 while it has student statements)' })
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    await this.ownSession(me, id);
    if (!(await this.sessions.delete(id))) throw notFound('business session', id);
    return { deleted: true, session_id: id };
  }

  /** 404 unless the session exists and `me` may change it (its teacher, or an admin). */
  private async ownSession(me: AuthenticatedUser, id: number): Promise<void> {
    changeable(me, await this.sessions.findById(id), (s) => s.teacherId, 'business session', id);
  }
}

/**
 * The teacher a session is given to: a teacher names only itself (403 otherwise: handing a
 * session to a colleague, or planting one on them, is an admin's call); an admin names anyone.
 */
function assignedTeacher(me: AuthenticatedUser, requested: number | undefined): number | undefined {
  if (requested !== undefined && me.role !== 'admin' && requested !== me.id) throw forbidden('only an admin assigns a session to another teacher');
  return requested;
}
