/**
 * The production list (staff: everyone's, filterable; a student: its own) and the productions of
 * one session, the Exercise service's side of a session report (its teacher or an admin).
 */
import { Inject, Injectable } from '@nestjs/common';
import { changeable, listOwner } from '@shellgrade/auth';
import {
  type ExerciseProduction,
  PRODUCTION_LISTING,
  type ProductionListing,
  SESSION_REPOSITORY,
  type SessionProductionRecord,
  type SessionProductionsSource,
  type SessionRepository,
  STORED_SESSION_PRODUCTIONS,
} from '@shellgrade/domain';
import type { Actor, Page } from './actor';

export interface ProductionQuery extends Page {
  userId?: number;
  exerciseId?: number;
  statementId?: number;
}

@Injectable()
export class ListProductions {
  constructor(
    @Inject(PRODUCTION_LISTING) private readonly productions: ProductionListing,
    @Inject(SESSION_REPOSITORY) private readonly sessions: SessionRepository,
    @Inject(STORED_SESSION_PRODUCTIONS) private readonly sessionProductions: SessionProductionsSource,
  ) {}

  /** Newest first; a student's list is its own, whatever user it asked for. */
  list(me: Actor, query: ProductionQuery): Promise<ExerciseProduction[]> {
    return this.productions.list({ ...query, userId: listOwner(me, query.userId) });
  }

  /** Anyone but the session's teacher or an admin is told the session does not exist. */
  async ofSession(me: Actor, sessionId: number): Promise<SessionProductionRecord[]> {
    changeable(me, await this.sessions.findById(sessionId), (s) => s.teacherId, 'business session', sessionId);
    return this.sessionProductions.productionsOfSession(sessionId, {});
  }
}
