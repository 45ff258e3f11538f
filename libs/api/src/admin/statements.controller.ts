import { Controller, Delete, Get, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { idParam, listOf, newStatementRequest, schemaRef, statementBody, statementsQuery, statementUpdateRequest } from '@shellgrade/api-contract';
import { ManageStatements } from '@shellgrade/application';
import { AuthGuard, type AuthenticatedUser, CurrentUser, Roles } from '@shellgrade/auth';
import { JsonBody, ZodPipe } from '@shellgrade/http';
import type { z } from 'zod';
import { statementView } from './views';

type StatementUpdate = z.infer<typeof statementUpdateRequest>;

/** Personalised statements, "ps_id" (rules: ManageStatements). */
@ApiTags('student-statements')
@Controller(['api/student-statement', 'api/student-statements'])
@UseGuards(AuthGuard)
export class StatementsController {
  constructor(private readonly statements: ManageStatements) {}

  @Get()
  @ApiOperation({ summary: 'Statements without archives (students: their own)' })
  @ApiOkResponse({ schema: listOf(statementBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(statementsQuery)) q: z.infer<typeof statementsQuery>) {
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
  async create(@CurrentUser() me: AuthenticatedUser, @JsonBody(new ZodPipe(newStatementRequest)) b: z.infer<typeof newStatementRequest>) {
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
  async replace(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @JsonBody(new ZodPipe(statementUpdateRequest)) b: StatementUpdate) {
    return this.update(me, id, b);
  }

  @Patch(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(statementBody) })
  async update(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @JsonBody(new ZodPipe(statementUpdateRequest)) b: StatementUpdate) {
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
