/**
 * The catalogue's repositories whose writes make a cached submission context stale, as
 * decorators of their ports: the write goes to the inner repository, and once it succeeded the
 * cache is told (SubmissionContextInvalidation, which never rejects), awaited, so the answer to
 * the write means every replica reads the new row. The read-through half is
 * CachedSubmissionContextReader. The wiring binds these when the spec caches (cache: redis);
 * every write path — a controller, a use case, a tool — then invalidates without knowing it.
 *
 * What a context is built from, and which write stales it:
 * - the exercise (grader, archive, statement text): ExerciseRepository update and delete;
 * - the statement (deadline, archive): StatementRepository update and delete;
 * - whether its student is enrolled: EnrolmentRepository enrol and unenrol.
 * Creating a row stales nothing: no context was built from it.
 */
import type {
  EnrolmentRepository,
  Exercise,
  ExercisePatch,
  ExerciseRepository,
  ExerciseState,
  NewExercise,
  NewStatement,
  StatementFilter,
  StatementPatch,
  StatementRepository,
  StudentStatement,
  SubmissionContextInvalidation,
} from '@shellgrade/domain';

export class ExerciseWritesInvalidation implements ExerciseRepository {
  constructor(
    private readonly inner: ExerciseRepository,
    private readonly contexts: SubmissionContextInvalidation,
  ) {}

  findById(id: number): Promise<Exercise | null> {
    return this.inner.findById(id);
  }
  list(opts: { state?: ExerciseState; limit: number; offset: number }): Promise<Exercise[]> {
    return this.inner.list(opts);
  }
  create(e: NewExercise): Promise<Exercise> {
    return this.inner.create(e);
  }
  async update(id: number, p: ExercisePatch): Promise<Exercise | null> {
    const updated = await this.inner.update(id, p);
    // Once a teacher has the answer, no replica grades with the old grader or archive.
    if (updated) await this.contexts.exerciseChanged(id);
    return updated;
  }
  async delete(id: number): Promise<boolean> {
    const deleted = await this.inner.delete(id);
    if (deleted) await this.contexts.exerciseChanged(id);
    return deleted;
  }
}

export class StatementWritesInvalidation implements StatementRepository {
  constructor(
    private readonly inner: StatementRepository,
    private readonly contexts: SubmissionContextInvalidation,
  ) {}

  findById(id: number): Promise<StudentStatement | null> {
    return this.inner.findById(id);
  }
  list(f: StatementFilter): Promise<StudentStatement[]> {
    return this.inner.list(f);
  }
  idsInSession(sessionId: number, userIds: number[]): Promise<number[]> {
    return this.inner.idsInSession(sessionId, userIds);
  }
  create(s: NewStatement): Promise<StudentStatement> {
    return this.inner.create(s);
  }
  async update(id: number, p: StatementPatch): Promise<StudentStatement | null> {
    const updated = await this.inner.update(id, p);
    // The next submission sees the new deadline or archive on every replica.
    if (updated) await this.contexts.statementChanged(id);
    return updated;
  }
  async delete(id: number): Promise<boolean> {
    const deleted = await this.inner.delete(id);
    if (deleted) await this.contexts.statementChanged(id);
    return deleted;
  }
}

/** An enrolment decides whether a statement accepts submissions: the contexts of these students' statements in the session are dropped. */
export class EnrolmentWritesInvalidation implements EnrolmentRepository {
  constructor(
    private readonly inner: EnrolmentRepository,
    private readonly statements: Pick<StatementRepository, 'idsInSession'>,
    private readonly contexts: SubmissionContextInvalidation,
  ) {}

  async enrol(sessionId: number, userIds: number[]): Promise<number> {
    const enrolled = await this.inner.enrol(sessionId, userIds);
    // Every named student, not only the newly enrolled: a context cached as "not enrolled" is stale either way.
    await this.enrolmentsChanged(sessionId, userIds);
    return enrolled;
  }
  isEnrolled(sessionId: number, userId: number): Promise<boolean> {
    return this.inner.isEnrolled(sessionId, userId);
  }
  listUserIds(sessionId: number): Promise<number[]> {
    return this.inner.listUserIds(sessionId);
  }
  async unenrol(sessionId: number, userId: number): Promise<boolean> {
    const unenrolled = await this.inner.unenrol(sessionId, userId);
    if (unenrolled) await this.enrolmentsChanged(sessionId, [userId]);
    return unenrolled;
  }

  private async enrolmentsChanged(sessionId: number, userIds: number[]): Promise<void> {
    const ids = await this.statements.idsInSession(sessionId, userIds);
    await Promise.all(ids.map((statementId) => this.contexts.statementChanged(statementId)));
  }
}
