import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { listOf, schemaRef, statementBody } from '@shellgrade/api-contract';
import { ManageStatements } from '@shellgrade/application';
import { AuthGuard, type AuthenticatedUser, CurrentUser, Roles } from '@shellgrade/auth';
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

/** Personalised statements, "ps_id" (rules: ManageStatements). */
@ApiTags('student-statements')
@Controller(['api/student-statement', 'api/student-statements'])
@UseGuards(AuthGuard)
export class StatementsController {
  constructor(private readonly statements: ManageStatements) {}

  @Get()
  @ApiOperation({ summary: 'Statements without archives (students: their own)' })
  @ApiOkResponse({ schema: listOf(statementBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(listQuery)) q: z.infer<typeof listQuery>) {
    const rows = await this.statements.list(me, { limit: q.limit, offset: q.offset, userId: q.user_id, sessionId: q.session_id, exerciseId: q.ex_id });
    return rows.map((s) => statementView(s, false));
  }

  @Get(':id')
  @ApiOkResponse({ schema: schemaRef(statementBody) })
  async findOne(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    return statementView(await this.statements.findOne(me, id), true);
  }

  @Post()
  @Roles('admin', 'teacher')
  @ApiCreatedResponse({ schema: schemaRef(statementBody) })
  async create(@CurrentUser() me: AuthenticatedUser, @Body(new ZodPipe(newStatementSchema)) b: z.infer<typeof newStatementSchema>) {
    const s = await this.statements.create(me, {
      userId: b.user_id,
      sessionId: b.session_id,
      exerciseId: b.ex_id,
      statementHtml: b.statement,
      questionArchive: b.question_archive,
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
    return statementView(await this.statements.update(me, id, { statementHtml: b.statement, questionArchive: b.question_archive, deadline: b.deadline }), true);
  }

  @Delete(':id')
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: 'Delete a statement (409 once productions reference it)' })
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    await this.statements.remove(me, id);
    return { deleted: true, ps_id: id };
  }
}
