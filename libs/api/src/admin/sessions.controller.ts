import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, type AuthenticatedUser, CurrentUser, isStaff, Roles } from '@shellgrade/auth';
import { forbidden, invalid, notFound } from '@shellgrade/domain';
import { ZodPipe } from '@shellgrade/http';
import { PgEnrolmentRepository, PgSessionRepository } from '@shellgrade/persistence';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { idParam, isoDate, nonEmpty, pageQuery } from './schemas';
import { sessionView } from './views';

const sessionFields = z.object({
  name: z.string().trim().min(1).max(200),
  sequence_id: idParam,
  starts_at: isoDate,
  ends_at: isoDate,
  enrolment_key: z.string().min(4).max(200),
  teacher_id: idParam,
});
const newSessionSchema = sessionFields
  .extend({ teacher_id: idParam.optional() })
  .strict()
  .refine((s) => s.ends_at >= s.starts_at, { message: 'ends_at is before starts_at', path: ['ends_at'] });
const sessionUpdateSchema = nonEmpty(sessionFields);
type SessionUpdate = z.infer<typeof sessionUpdateSchema>;
const enrolSchema = z.union([
  z.object({ enrolment_key: z.string().min(1).max(200) }).strict(),
  z.object({ user_ids: z.array(idParam).min(1).max(10_000) }).strict(),
]);

/** Business sessions: staff manage them; a student sees the sessions it is enrolled in. */
@ApiTags('business-sessions')
@Controller(['api/business-session', 'api/business-sessions'])
@UseGuards(AuthGuard)
export class SessionsController {
  constructor(
    private readonly sessions: PgSessionRepository,
    private readonly enrolments: PgEnrolmentRepository,
  ) {}

  @Get()
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(pageQuery)) q: z.infer<typeof pageQuery>) {
    const staff = isStaff(me.role);
    const rows = await this.sessions.list({ ...q, studentId: staff ? undefined : me.id });
    return rows.map((s) => sessionView(s, staff));
  }

  @Get(':id')
  async findOne(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    const staff = isStaff(me.role);
    const s = await this.sessions.findById(id);
    if (!s || (!staff && !(await this.enrolments.isEnrolled(id, me.id)))) throw notFound('business session', id);
    return sessionView(s, staff);
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
      return { session_id: id, enrolled: await this.enrolments.enrol(id, b.user_ids) };
    }
    if (!sameSecret(b.enrolment_key, s.enrolmentKey)) throw invalid('wrong enrolment key');
    return { session_id: id, enrolled: await this.enrolments.enrol(id, [me.id]) };
  }

  @Post()
  @Roles('admin', 'teacher')
  async create(@CurrentUser() me: AuthenticatedUser, @Body(new ZodPipe(newSessionSchema)) b: z.infer<typeof newSessionSchema>) {
    const s = await this.sessions.create({
      name: b.name,
      sequenceId: b.sequence_id,
      startsAt: b.starts_at,
      endsAt: b.ends_at,
      enrolmentKey: b.enrolment_key,
      teacherId: b.teacher_id ?? me.id,
    });
    return sessionView(s, true);
  }

  @Put(':id')
  @Roles('admin', 'teacher')
  async replace(@Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(sessionUpdateSchema)) b: SessionUpdate) {
    return this.update(id, b);
  }

  @Patch(':id')
  @Roles('admin', 'teacher')
  async update(@Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(sessionUpdateSchema)) b: SessionUpdate) {
    const s = await this.sessions.update(id, {
      name: b.name,
      sequenceId: b.sequence_id,
      startsAt: b.starts_at,
      endsAt: b.ends_at,
      enrolmentKey: b.enrolment_key,
      teacherId: b.teacher_id,
    });
    if (!s) throw notFound('business session', id);
    return sessionView(s, true);
  }

  @Delete(':id')
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: 'Delete a session (409 while it has student statements)' })
  async remove(@Param('id', new ZodPipe(idParam)) id: number) {
    if (!(await this.sessions.delete(id))) throw notFound('business session', id);
    return { deleted: true, session_id: id };
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
