import { Controller, Get, Header, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { idParam, listOf, productionBody, productionsQuery, schemaRef, sessionProductionsBody } from '@shellgrade/api-contract';
import { ListProductions } from '@shellgrade/application';
import { AuthGuard, type AuthenticatedUser, CurrentUser, Roles } from '@shellgrade/auth';
import { ZodPipe } from '@shellgrade/http';
import type { z } from 'zod';
import { productionView } from '../production/production.view';
import { sessionProductionView } from '../report/session-report.view';

/**
 * GET /api/exercise-production (list) and GET …/by-session/:session_id (the Exercise service's
 * side of the S2 report); submission and GET by id live in ProductionController.
 */
@ApiTags('exercise-production')
@Controller(['api/exercise-production', 'api/exercise-productions'])
@UseGuards(AuthGuard)
export class ProductionsListController {
  constructor(private readonly productions: ListProductions) {}

  @Get()
  @ApiOperation({ summary: 'Productions, newest first (staff: all, filterable; students: their own)' })
  @ApiOkResponse({ schema: listOf(productionBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(productionsQuery)) q: z.infer<typeof productionsQuery>) {
    const rows = await this.productions.list(me, { limit: q.limit, offset: q.offset, userId: q.user_id, exerciseId: q.ex_id, statementId: q.ps_id });
    return rows.map(productionView);
  }

  /** Compact rows (no feedback, no archive) for the session's teacher or an admin; anyone else's session does not exist. */
  @Get('by-session/:session_id')
  @Roles('admin', 'teacher')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Every production of a session (compact rows), for its report (its teacher or an admin)' })
  @ApiOkResponse({ schema: schemaRef(sessionProductionsBody) })
  async ofSession(@CurrentUser() me: AuthenticatedUser, @Param('session_id', new ZodPipe(idParam)) sessionId: number) {
    const rows = await this.productions.ofSession(me, sessionId);
    return { session_id: sessionId, productions: rows.map(sessionProductionView) };
  }
}
