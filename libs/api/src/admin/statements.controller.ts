import { Body, Controller, Delete, Get, Inject, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { listOf, schemaRef, statementBody } from '@shellgrade/api-contract';
import { AuthGuard, type AuthenticatedUser, changeable, CurrentUser, listOwner, readable, Roles } from '@shellgrade/auth';
import { EXERCISE_REPOSITORY, type ExerciseRepository, notFound, SESSION_REPOSITORY, type SessionRepository, STATEMENT_REPOSITORY, type StatementRepository, SUBMISSION_CONTEXT_INVALIDATION, type SubmissionContextInvalidation } from '@shellgrade/domain';
import { ZodPipe } from '@shellgrade/http';
import { z } from 'zod';
import { base64Bytes, idParam, isoDate, nonEmpty, optionalId, pageQuery } from './schemas';
import { statementView } from './views';

const newStatementSchema = z
  .object({
    user_id: idParam,
    session_id: idParam,
    ex_id: idParam,
    /** Defaults to the exercise's statement and question archive. */
    statement: z.string().max(1_000_000).optional(),
    question_archive: base64Bytes.optional(),
    deadline: isoDate.nullable().default(null),
  })
  .strict();
const statementUpdateSchema = nonEmpty(
  z.object({ statement: z.string().max(1_000_000), question_archive: base64Bytes, deadline: isoDate.nullable() }),
);
type StatementUpdate = z.infer<typeof statementUpdateSchema>;
const listQuery = pageQuery.extend({ user_id: optionalId, session_id: optionalId, ex_id: optionalId });

/**
 * Personalised statements ("ps_id"): staff read them all; a statement belongs to its session, so
 * a teacher creates and changes statements only in the sessions it teaches (admins: any); a
 * student sees only its own.
 */
@ApiTags('student-statements')
@Controller(['api/student-statement', 'api/student-statements'])
@UseGuards(AuthGuard)
export class StatementsController {
  constructor(
    @Inject(STATEMENT_REPOSITORY) private readonly statements: StatementRepository,
    @Inject(EXERCISE_REPOSITORY) private readonly exercises: ExerciseRepository,
    @Inject(SESSION_REPOSITORY) private readonly sessions: SessionRepository,
    @Inject(SUBMISSION_CONTEXT_INVALIDATION) private readonly cachedContexts: SubmissionContextInvalidation,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Statements without archives (students: their own)' })
  @ApiOkResponse({ schema: listOf(statementBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(listQuery)) q: z.infer<typeof listQuery>) {
    const rows = await this.statements.list({
      limit: q.limit,
      offset: q.offset,
      userId: listOwner(me, q.user_id),
      sessionId: q.session_id,
      exerciseId: q.ex_id,
    });
    return rows.map((s) => statementView(s, false));
  }

  @Get(':id')
  @ApiOkResponse({ schema: schemaRef(statementBody) })
  async findOne(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    const s = readable(me, await this.statements.findById(id), (row) => row.userId, 'student statement', id);
    return statementView(s, true);
  }

  @Post()
  @Roles('admin', 'teacher')
  @ApiCreatedResponse({ schema: schemaRef(statementBody) })
  async create(@CurrentUser() me: AuthenticatedUser, @Body(new ZodPipe(newStatementSchema)) b: z.infer<typeof newStatementSchema>) {
    await this.ownSession(me, b.session_id);
    const exercise = await this.exercises.findById(b.ex_id);
    if (!exercise) throw notFound('exercise', b.ex_id);
    const s = await this.statements.create({
      userId: b.user_id,
      sessionId: b.session_id,
      exerciseId: b.ex_id,
      statementHtml: b.statement ?? exercise.statementHtml,
      questionArchive: b.question_archive ?? exercise.questionArchive,
      deadline: b.deadline,
    });
    return statementView(s, true);
  }

  @Put(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(statementBody) })
  async replace(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(statementUpdateSchema)) b: StatementUpdate) {
    return this.update(me, id, b);
  }

  @Patch(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(statementBody) })
  async update(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(statementUpdateSchema)) b: StatementUpdate) {
    await this.ownStatement(me, id);
    const s = await this.statements.update(id, { statementHtml: b.statement, questionArchive: b.question_archive, deadline: b.deadline });
    if (!s) throw notFound('student statement', id);
    // Awaited: the next submission sees the new deadline or archive on every replica.
    await this.cachedContexts.statementChanged(id);
    return statementView(s, true);
  }

  @Delete(':id')
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: 'Delete a statement (409 once productions reference it)' })
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    await this.ownStatement(me, id);
    if (!(await this.statements.delete(id))) throw notFound('student statement', id);
    await this.cachedContexts.statementChanged(id);
    return { deleted: true, ps_id: id };
  }

  /** 404 unless the session exists and `me` may change it (its teacher, or an admin). */
  private async ownSession(me: AuthenticatedUser, sessionId: number): Promise<void> {
    changeable(me, await this.sessions.findById(sessionId), (s) => s.teacherId, 'business session', sessionId);
  }

  /** 404 unless the statement exists and `me` may change its session: another teacher's statement does not exist for it. */
  private async ownStatement(me: AuthenticatedUser, id: number): Promise<void> {
    const statement = await this.statements.findById(id);
    const session = statement && (await this.sessions.findById(statement.sessionId));
    changeable(me, session, (s) => s.teacherId, 'student statement', id);
  }
}
