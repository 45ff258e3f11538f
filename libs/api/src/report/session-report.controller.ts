import { Controller, Get, Inject, Module, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { idParam, reportQuery, schemaRef, sessionReportBody } from '@shellgrade/api-contract';
import type { Request, Response } from 'express';
import { accessTokenOf, AuthGuard, IDENTITY_ASSERTION_HEADER, type AuthenticatedUser, changeable, CurrentUser } from '@shellgrade/auth';
import { SESSION_PRODUCTIONS, SESSION_REPOSITORY, SESSION_ROSTER, type SessionProductionsSource, SessionReportService, type SessionRepository, type SessionRosterReader } from '@shellgrade/domain';
import { ZodPipe } from '@shellgrade/http';
import type { z } from 'zod';
import { sessionReportCsv, sessionReportView } from './session-report.view';

/**
 * GET /api/business-session/:id/report — paper 001's S2: the session's results, computed here
 * from every production of the session (fetched from the Exercise service in msa variants).
 * Only the session's teacher or an admin reads it; anyone else is told the session does not
 * exist (libs/auth ownership policy).
 */
@ApiTags('business-sessions')
@Controller(['api/business-session', 'api/business-sessions'])
@UseGuards(AuthGuard)
export class SessionReportController {
  constructor(
    @Inject(SESSION_REPOSITORY) private readonly sessions: SessionRepository,
    private readonly reports: SessionReportService,
  ) {}

  @Get(':id/report')
  @ApiOperation({ summary: "Results of a session (grade distribution, per-exercise pass rates, per-student progress); ?format=csv for the per-student CSV" })
  @ApiOkResponse({ schema: schemaRef(sessionReportBody) })
  async report(
    @CurrentUser() me: AuthenticatedUser,
    @Param('id', new ZodPipe(idParam)) id: number,
    @Query(new ZodPipe(reportQuery)) q: z.infer<typeof reportQuery>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    changeable(me, await this.sessions.findById(id), (s) => s.teacherId, 'business session', id);
    const assertion = req.headers[IDENTITY_ASSERTION_HEADER];
    const report = await this.reports.report(id, { accessToken: accessTokenOf(req), ...(typeof assertion === 'string' ? { identityAssertion: assertion } : {}) });
    if (q.format === 'csv') {
      res.type('text/csv').setHeader('Content-Disposition', `attachment; filename="session-${id}-report.csv"`);
      return sessionReportCsv(report);
    }
    return sessionReportView(report);
  }
}

/**
 * GET /api/exercise-productions/by-session/:session_id — the Exercise service's side of S2:
 * every production of a session, compact (no feedback, no archive), for staff.
 */
@ApiTags('exercise-production')
/** The report endpoint (Leftover, monolith). Needs SESSION_ROSTER (persistence) and SESSION_PRODUCTIONS (wiring). */
@Module({
  controllers: [SessionReportController],
  providers: [
    {
      provide: SessionReportService,
      inject: [SESSION_ROSTER, SESSION_PRODUCTIONS],
      useFactory: (rosters: SessionRosterReader, productions: SessionProductionsSource) => new SessionReportService(rosters, productions),
    },
  ],
})
export class SessionReportApiModule {}
