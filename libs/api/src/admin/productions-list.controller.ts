import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, type AuthenticatedUser, CurrentUser, listOwner } from '@shellgrade/auth';
import { ZodPipe } from '@shellgrade/http';
import { PgProductionRepository } from '@shellgrade/persistence';
import { z } from 'zod';
import { productionView } from '../production/production.view';
import { optionalId, pageQuery } from './schemas';

const listQuery = pageQuery.extend({ user_id: optionalId, ex_id: optionalId, ps_id: optionalId });

/** GET /api/exercise-production (list); submission and GET by id live in ProductionController. */
@ApiTags('exercise-production')
@Controller(['api/exercise-production', 'api/exercise-productions'])
@UseGuards(AuthGuard)
export class ProductionsListController {
  constructor(private readonly productions: PgProductionRepository) {}

  @Get()
  @ApiOperation({ summary: 'Productions, newest first (staff: all, filterable; students: their own)' })
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
}
