import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { businessSessionBody, enrolRequest, idParam, listOf, newSessionRequest, pageQuery, schemaRef, sessionUpdateRequest } from '@shellgrade/api-contract';
import { ManageSessions, type SessionFields, type SessionWithKey } from '@shellgrade/application';
import { AuthGuard, type AuthenticatedUser, CurrentUser, Roles } from '@shellgrade/auth';
import { JsonBody, ZodPipe } from '@shellgrade/http';
import type { z } from 'zod';
import { sessionView } from './views';

type SessionUpdate = z.infer<typeof sessionUpdateRequest>;

/** The body's snake_case fields as the use case's; what the body leaves out stays out. */
const sessionFieldsOf = (b: SessionUpdate): Partial<SessionFields> => ({
  name: b.name,
  sequenceId: b.sequence_id,
  startsAt: b.starts_at,
  endsAt: b.ends_at,
  enrolmentKey: b.enrolment_key,
  teacherId: b.teacher_id,
});

/** The session, with its key in clear when this answer set it. */
const withKeyView = ({ session, enrolmentKey }: SessionWithKey) => ({ ...sessionView(session), ...(enrolmentKey === undefined ? {} : { enrolment_key: enrolmentKey }) });

/** Business sessions and their enrolments (rules: ManageSessions). */
@ApiTags('business-sessions')
@Controller(['api/business-session', 'api/business-sessions'])
@UseGuards(AuthGuard)
export class SessionsController {
  constructor(private readonly sessions: ManageSessions) {}

  @Get()
  @ApiOkResponse({ schema: listOf(businessSessionBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(pageQuery)) q: z.infer<typeof pageQuery>) {
    return (await this.sessions.list(me, q)).map(sessionView);
  }

  @Get(':id')
  @ApiOkResponse({ schema: schemaRef(businessSessionBody) })
  async findOne(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    return sessionView(await this.sessions.findOne(me, id));
  }

  @Get(':id/enrolments')
  @Roles('admin', 'teacher')
  async enrolled(@Param('id', new ZodPipe(idParam)) id: number) {
    return { session_id: id, user_ids: await this.sessions.enrolled(id) };
  }

  @Post(':id/enrolments')
  @HttpCode(200)
  @ApiOperation({ summary: 'Student: enrol with {enrolment_key}; staff: enrol {user_ids}' })
  async enrol(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @JsonBody(new ZodPipe(enrolRequest)) b: z.infer<typeof enrolRequest>) {
    const enrolled = await this.sessions.enrol(me, id, 'user_ids' in b ? { userIds: b.user_ids } : { enrolmentKey: b.enrolment_key });
    return { session_id: id, enrolled };
  }

  @Delete(':id/enrolments/:user_id')
  @ApiOperation({ summary: 'Unenrol a student (staff), or leave the session (the student itself)' })
  async unenrol(
    @CurrentUser() me: AuthenticatedUser,
    @Param('id', new ZodPipe(idParam)) id: number,
    @Param('user_id', new ZodPipe(idParam)) userId: number,
  ) {
    await this.sessions.unenrol(me, id, userId);
    return { session_id: id, user_id: userId, unenrolled: true };
  }

  @Post()
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: 'Create a session; the enrolment key (generated when omitted) is shown in this answer only' })
  @ApiCreatedResponse({ schema: schemaRef(businessSessionBody) })
  async create(@CurrentUser() me: AuthenticatedUser, @JsonBody(new ZodPipe(newSessionRequest)) b: z.infer<typeof newSessionRequest>) {
    const fields = { name: b.name, sequenceId: b.sequence_id, startsAt: b.starts_at, endsAt: b.ends_at, enrolmentKey: b.enrolment_key, teacherId: b.teacher_id };
    return withKeyView(await this.sessions.create(me, fields));
  }

  @Put(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(businessSessionBody) })
  async replace(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @JsonBody(new ZodPipe(sessionUpdateRequest)) b: SessionUpdate) {
    return this.update(me, id, b);
  }

  @Patch(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(businessSessionBody) })
  async update(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @JsonBody(new ZodPipe(sessionUpdateRequest)) b: SessionUpdate) {
    return withKeyView(await this.sessions.update(me, id, sessionFieldsOf(b)));
  }

  @Delete(':id')
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: 'Delete a session (409 while it has student statements)' })
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    await this.sessions.remove(me, id);
    return { deleted: true, session_id: id };
  }
}
