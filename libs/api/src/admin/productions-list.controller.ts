import { Controller, Get, Header, Inject, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { listOf, productionBody, sessionProductionBody } from '@shellgrade/api-contract';
import { AuthGuard, type AuthenticatedUser, changeable, CurrentUser, listOwner, Roles } from '@shellgrade/auth';
import { PRODUCTION_LISTING, type ProductionListing, SESSION_REPOSITORY, type SessionProductionsSource, type SessionRepository, STORED_SESSION_PRODUCTIONS } from '@shellgrade/domain';
import { ZodPipe } from '@shellgrade/http';
import { z } from 'zod';
import { productionView } from '../production/production.view';
import { sessionProductionView } from '../report/session-report.view';
import { idParam, optionalId, pageQuery } from './schemas';

const listQuery = pageQuery.extend({ user_id: optionalId, ex_id: optionalId, ps_id: optionalId });

/**
 * GET /api/exercise-production (list) and GET …/by-session/:session_id (the Exercise service's
 * side of the S2 report); submission and GET by id live in ProductionController.
 */
@ApiTags('exercise-production')
@Controller(['api/exercise-production', 'api/exercise-productions'])
@UseGuards(AuthGuard)
export class ProductionsListController {
  constructor(
    @Inject(PRODUCTION_LISTING) private readonly productions: ProductionListing,
    @Inject(SESSION_REPOSITORY) private readonly sessions: SessionRepository,
    @Inject(STORED_SESSION_PRODUCTIONS) private readonly sessionProductions: SessionProductionsSource,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Productions, newest first (staff: all, filterable; students: their own)' })
  @ApiOkResponse({ schema: listOf(productionBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(listQuery)) q: z.infer<typeof listQuery>) {
    const rows = await this.productions.list({
      limit: q.limit,
      offset: q.offset,
      userId: listOwner(me, q.user_id),
      exerciseId: q.ex_id,
      statementId: q.ps_id,
    });
    return rows.map(productionView);
  }

  /** Compact rows (no feedback, no archive) for the session's teacher or an admin; anyone else's session does not exist. */
  @Get('by-session/:session_id')
  @Roles('admin', 'teacher')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Every production of a session (compact rows), for its report (its teacher or an admin)' })
  @ApiOkResponse({ schema: { type: 'object', properties: { session_id: { type: 'integer' }, productions: listOf(sessionProductionBody) }, required: ['session_id', 'productions'] } })
  async ofSession(@CurrentUser() me: AuthenticatedUser, @Param('session_id', new ZodPipe(idParam)) sessionId: number) {
    changeable(me, await this.sessions.findById(sessionId), (s) => s.teacherId, 'business session', sessionId);
    const rows = await this.sessionProductions.productionsOfSession(sessionId, {});
    return { session_id: sessionId, productions: rows.map(sessionProductionView) };
  }
}
