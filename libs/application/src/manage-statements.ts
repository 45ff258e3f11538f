/**
 * Personalised statements ("ps_id"): staff read them all; a statement belongs to its session, so
 * a teacher creates and changes statements only in the sessions it teaches (admins: any); a
 * student sees only its own.
 *
 * A changed statement makes its cached submission context stale: the wiring binds
 * STATEMENT_REPOSITORY to a decorator that invalidates on write when the spec caches.
 */
import { Inject, Injectable } from '@nestjs/common';
import { changeable, listOwner, readable } from '@shellgrade/auth';
import {
  EXERCISE_REPOSITORY,
  type ExerciseRepository,
  notFound,
  SESSION_REPOSITORY,
  type SessionRepository,
  STATEMENT_REPOSITORY,
  type StatementPatch,
  type StatementRepository,
  type StudentStatement,
} from '@shellgrade/domain';
import type { Actor, Page } from './actor';
import { OwnedRows } from './owned-rows';

export interface StatementQuery extends Page {
  userId?: number;
  sessionId?: number;
  exerciseId?: number;
}

/** A new statement: the text and the question archive default to the exercise's. */
export interface NewStatementFields {
  userId: number;
  sessionId: number;
  exerciseId: number;
  statementHtml?: string;
  questionArchive?: Buffer;
  deadline: Date | null;
}

@Injectable()
export class ManageStatements {
  constructor(
    @Inject(STATEMENT_REPOSITORY) private readonly statements: StatementRepository,
    @Inject(EXERCISE_REPOSITORY) private readonly exercises: ExerciseRepository,
    @Inject(SESSION_REPOSITORY) private readonly sessions: SessionRepository,
  ) {
    this.owned = new OwnedRows(statements, 'student statement', (me, id) => this.ownStatement(me, id));
  }

  private readonly owned: OwnedRows<StudentStatement, StatementPatch>;

  /** A student's list is its own, whatever user it asked for. */
  list(me: Actor, query: StatementQuery): Promise<StudentStatement[]> {
    return this.statements.list({ ...query, userId: listOwner(me, query.userId) });
  }

  async findOne(me: Actor, id: number): Promise<StudentStatement> {
    return readable(me, await this.statements.findById(id), (row) => row.userId, 'student statement', id);
  }

  async create(me: Actor, fields: NewStatementFields): Promise<StudentStatement> {
    await this.ownSession(me, fields.sessionId);
    const exercise = await this.exercises.findById(fields.exerciseId);
    if (!exercise) throw notFound('exercise', fields.exerciseId);
    return this.statements.create({
      userId: fields.userId,
      sessionId: fields.sessionId,
      exerciseId: fields.exerciseId,
      statementHtml: fields.statementHtml ?? exercise.statementHtml,
      questionArchive: fields.questionArchive ?? exercise.questionArchive,
      deadline: fields.deadline,
    });
  }

  update(me: Actor, id: number, patch: StatementPatch): Promise<StudentStatement> {
    return this.owned.update(me, id, patch);
  }

  /** 409 (from the repository) once productions reference it. */
  remove(me: Actor, id: number): Promise<void> {
    return this.owned.remove(me, id);
  }

  /** 404 unless the session exists and `me` may change it (its teacher, or an admin). */
  private async ownSession(me: Actor, sessionId: number): Promise<void> {
    changeable(me, await this.sessions.findById(sessionId), (s) => s.teacherId, 'business session', sessionId);
  }

  /** 404 unless the statement exists and `me` may change its session: another teacher's statement does not exist for it. */
  private async ownStatement(me: Actor, id: number): Promise<void> {
    const statement = await this.statements.findById(id);
    const session = statement && (await this.sessions.findById(statement.sessionId));
    changeable(me, session, (s) => s.teacherId, 'student statement', id);
  }
}
