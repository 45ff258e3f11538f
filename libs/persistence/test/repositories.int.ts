import { DomainError, type NewProduction } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { createPool } from '../src/pool';
import { PgExerciseRepository } from '../src/repositories/exercise.repository';
import { FINISHED_WINDOW_S, PgGradingBacklog } from '../src/repositories/grading-backlog.reader';
import { PgProductionRepository } from '../src/repositories/production.repository';
import { PgRefreshTokenRepository } from '../src/repositories/refresh-token.repository';
import { PgSequenceRepository } from '../src/repositories/sequence.repository';
import { PgStatementRepository } from '../src/repositories/statement.repository';
import { PgSubmissionContextReader } from '../src/repositories/submission-context.reader';
import { PgUserRepository } from '../src/repositories/user.repository';
import { seed, type SeedResult } from '@shellgrade/admin-cli/seed';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { testCatalog } from './fixtures';

describe('repositories (real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let seeded: SeedResult;
  let productions: PgProductionRepository;
  let keyCounter = 0;

  const newProduction = (over: Partial<NewProduction> = {}): NewProduction => {
    const student = seeded.students[0]!;
    return {
      userId: student.userId,
      exerciseId: seeded.csvExerciseId,
      statementId: student.statementId,
      submissionKey: `key-${++keyCounter}`,
      archiveSize: 3,
      archiveSha256: 'a'.repeat(64),
      status: 'received',
      ...over,
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, size: 12, idleTimeoutMs: 30_000 });
    seeded = await seed(pool, { students: 3, teachers: 1, catalog: testCatalog, kdfCost: 4 });
    productions = new PgProductionRepository(pool);
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  describe('ProductionRepository', () => {
    it('create is idempotent on the submission key', async () => {
      const p = newProduction();
      const first = await productions.create(p);
      const again = await productions.create({ ...p, archiveSize: 999 });
      expect(first.created).toBe(true);
      expect(again.created).toBe(false);
      expect(again.production).toEqual(first.production);
      expect(first.production).toMatchObject({ status: 'received', grade: null, comment: [], archiveSize: 3 });
    });

    it('create with the archive stores the bytes in the row in the same statement; a repeated key stores nothing more', async () => {
      const archive = Buffer.from('abc');
      const p = newProduction({ archive });
      const first = await productions.create(p);
      const again = await productions.create({ ...p, archive: Buffer.from('other') });
      expect(again).toMatchObject({ created: false, production: { id: first.production.id } });
      const { rows } = await pool.query<{ archive: Buffer; archive_key: string | null }>('SELECT archive, archive_key FROM exercise_productions WHERE id = $1', [first.production.id]);
      expect(rows[0].archive.equals(archive)).toBe(true);
      expect(rows[0].archive_key).toBeNull();
    });

    it('concurrent creates with one key yield exactly one row', async () => {
      const p = newProduction();
      const results = await Promise.all(Array.from({ length: 10 }, () => productions.create(p)));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.production.id)).size).toBe(1);
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM exercise_productions WHERE submission_key = $1', [p.submissionKey]);
      expect(rows[0].n).toBe(1);
    });

    it('complete moves a production to final exactly once, even when raced', async () => {
      const { production } = await productions.create(newProduction());
      await productions.setStatus(production.id, 'grading');
      const comment = [{ numQ: 1, verif: 'hello.sh exists', status: 'OK' as const, expl: '' }];
      const outcomes = await Promise.all([
        productions.complete(production.id, { grade: 100, comment }),
        productions.complete(production.id, { grade: 0, comment: [] }),
        productions.complete(production.id, { failureReason: 'timeout' }),
      ]);
      const winners = outcomes.filter((o) => o !== null);
      expect(winners).toHaveLength(1);
      const stored = await productions.findById(production.id);
      expect(['graded', 'failed']).toContain(stored!.status);
      expect(stored!.gradedAt).toBeInstanceOf(Date);
      // What complete returned is the row as stored: callers answer with it without reading it back.
      expect(winners[0]).toEqual(stored);
      // A late status update (redelivered job) does not reopen a final production.
      await productions.setStatus(production.id, 'queued');
      expect((await productions.findById(production.id))!.status).toBe(stored!.status);
    });

    it('stores a failure reason', async () => {
      const { production } = await productions.create(newProduction());
      const stored = await productions.complete(production.id, { failureReason: 'grader crashed' });
      expect(stored).toMatchObject({ id: production.id, status: 'failed', grade: null, failureReason: 'grader crashed' });
      expect(await productions.findById(production.id)).toEqual(stored);
    });

    it('lists newest first, filtered by user', async () => {
      const other = seeded.students[1]!;
      await productions.create(newProduction({ userId: other.userId, statementId: other.statementId }));
      const mine = await productions.list({ userId: seeded.students[0]!.userId, limit: 100, offset: 0 });
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((p) => p.userId === seeded.students[0]!.userId)).toBe(true);
      const ids = mine.map((p) => p.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });

    it('deleteAll deletes every production and returns the count', async () => {
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM exercise_productions');
      expect(rows[0].n).toBeGreaterThan(0);
      await expect(productions.deleteAll()).resolves.toBe(rows[0].n);
      await expect(productions.findById(1)).resolves.toBeNull();
    });
  });

  describe('GradingBacklog', () => {
    it('counts the productions not yet final submitted before one, and the gradings finished lately', async () => {
      await productions.deleteAll();
      const backlog = new PgGradingBacklog(pool);
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) ids.push((await productions.create(newProduction())).production.id);
      await productions.setStatus(ids[1]!, 'queued');
      // Nothing finished yet: no rate, so no estimate can be made from it.
      await expect(backlog.ahead(ids[3]!)).resolves.toEqual({ ahead: 3, finishedPerS: null });
      await productions.complete(ids[0]!, { grade: 80, comment: [] });
      await productions.complete(ids[2]!, { failureReason: 'the grader crashed' });
      // Only ids[1] (queued) is still ahead of ids[3]; two gradings (a failure counts: it left the queue) finished.
      await expect(backlog.ahead(ids[3]!)).resolves.toEqual({ ahead: 1, finishedPerS: 2 / FINISHED_WINDOW_S });
      await expect(backlog.ahead(ids[0]!)).resolves.toEqual({ ahead: 0, finishedPerS: 2 / FINISHED_WINDOW_S });
    });
  });

  describe('SubmissionContextReader', () => {
    it("loads the student's statement with its exercise", async () => {
      const s = seeded.students[0]!;
      const ctx = await new PgSubmissionContextReader(pool).load(s.userId, s.statementId, seeded.csvExerciseId);
      expect(ctx.statement).toMatchObject({ id: s.statementId, userId: s.userId, exerciseId: seeded.csvExerciseId });
      expect(ctx.exercise).toMatchObject({ slug: 'paper-scripts', graderScript: 'print("{}")', locale: 'en', state: 'published' });
      expect(ctx.exercise.questionArchive).toEqual(testCatalog[0]!.questionArchive);
    });

    it.each([
      ['another student', 1, 0, 0],
      ['another exercise', 0, 0, 1],
      ['an unknown statement', 0, 999_999, 0],
    ])('is not-found for %s', async (_label, userOffset, statementOffset, exerciseOffset) => {
      const s = seeded.students[0]!;
      const userId = seeded.students[userOffset]!.userId;
      const exerciseId = exerciseOffset ? seeded.exerciseIds['file-permissions']! : seeded.csvExerciseId;
      const err = await new PgSubmissionContextReader(pool)
        .load(userId, s.statementId + statementOffset, exerciseId)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).kind).toBe('not-found');
    });
  });

  describe('SubmissionContextReader.loadForGrading', () => {
    it('reads a production and the context load gives, in one statement', async () => {
      const s = seeded.students[0]!;
      const { production } = await productions.create(newProduction());
      const reader = new PgSubmissionContextReader(pool);
      const got = await reader.loadForGrading(production.id);
      expect(got!.production).toEqual(await productions.findById(production.id));
      expect(got!.context).toEqual(await reader.load(s.userId, s.statementId, seeded.csvExerciseId));
    });

    it('is null for an unknown production, and has no context once its statement is gone', async () => {
      const reader = new PgSubmissionContextReader(pool);
      await expect(reader.loadForGrading(999_999)).resolves.toBeNull();
      // A production whose statement is not its student's (as when the statement was handed to
      // another student): under load's ownership rule it has no context.
      const { production } = await productions.create(newProduction({ userId: seeded.students[1]!.userId, statementId: seeded.students[2]!.statementId }));
      const got = await reader.loadForGrading(production.id);
      expect(got).toMatchObject({ production: { id: production.id }, context: null });
    });

    it('take: moves a production that is not final to grading and returns it so, with its context and the archive of its row', async () => {
      const s = seeded.students[0]!;
      const archive = Buffer.from([31, 139, 8, 0, 1, 2, 3]);
      const { production } = await productions.create(newProduction({ status: 'queued', archive, archiveSize: archive.length }));
      const reader = new PgSubmissionContextReader(pool);
      const got = await reader.loadForGrading(production.id, { take: true });
      expect(got).toMatchObject({ taken: true, production: { id: production.id, status: 'grading' } });
      expect(got!.archive!.equals(archive)).toBe(true);
      expect(got!.production).toEqual(await productions.findById(production.id));
      expect(got!.context).toEqual(await reader.load(s.userId, s.statementId, seeded.csvExerciseId));
    });

    it('take: leaves a final production as it is (a redelivery), and reads a row without an archive as null', async () => {
      const { production } = await productions.create(newProduction({ status: 'queued' }));
      await productions.complete(production.id, { grade: 40, comment: [] });
      const reader = new PgSubmissionContextReader(pool);
      const got = await reader.loadForGrading(production.id, { take: true });
      expect(got).toMatchObject({ taken: false, archive: null, production: { status: 'graded', grade: 40 } });
      expect(await productions.findById(production.id)).toMatchObject({ status: 'graded', grade: 40 });
      await expect(reader.loadForGrading(999_999, { take: true })).resolves.toBeNull();
    });
  });

  describe('refresh-token store', () => {
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const later = () => new Date(Date.now() + 60_000);

    it('rotates a token once; presenting it again revokes its whole family, not other logins', async () => {
      const tokens = new PgRefreshTokenRepository(pool);
      const userId = seeded.adminId;
      await tokens.insert(id(1), userId, id(100), later());
      await tokens.insert(id(2), userId, id(200), later());
      // Rotated with the account as it stands, read by the same statement (a refresh answers with it).
      const admin = await new PgUserRepository(pool).findAccount(userId);
      await expect(tokens.rotate(id(1), userId, { jti: id(3), expiresAt: later() })).resolves.toEqual({ outcome: 'rotated', account: admin });
      await expect(tokens.rotate(id(1), userId + 1, { jti: id(4), expiresAt: later() })).resolves.toEqual({ outcome: 'unknown' });
      await expect(tokens.rotate(id(1), userId, { jti: id(5), expiresAt: later() })).resolves.toEqual({ outcome: 'reused' });
      // The successor died with its family; the other login lives on.
      await expect(tokens.rotate(id(3), userId, { jti: id(6), expiresAt: later() })).resolves.toEqual({ outcome: 'reused' });
      await expect(tokens.rotate(id(2), userId, { jti: id(7), expiresAt: later() })).resolves.toMatchObject({ outcome: 'rotated' });
    });

    it('revokes a family (logout) and every other session of a user (password change)', async () => {
      const tokens = new PgRefreshTokenRepository(pool);
      const userId = seeded.teacherIds[0]!;
      await tokens.insert(id(11), userId, id(110), later());
      await tokens.insert(id(12), userId, id(120), later());
      await tokens.insert(id(13), userId, id(130), later());
      await tokens.insert(id(14), userId, id(140), new Date(Date.now() - 1000));
      await expect(tokens.revokeFamily(id(110))).resolves.toBe(true);
      await expect(tokens.revokeFamily(id(110))).resolves.toBe(false);
      await expect(tokens.revokeUserSessions(userId, id(130))).resolves.toBe(2); // 120 and the expired 140
      await expect(tokens.rotate(id(12), userId, { jti: id(15), expiresAt: later() })).resolves.toEqual({ outcome: 'reused' });
      await expect(tokens.rotate(id(13), userId, { jti: id(16), expiresAt: later() })).resolves.toMatchObject({ outcome: 'rotated' });
      // Revoked and expired sessions go; the live family (its used token included) stays.
      await expect(tokens.purgeInactive()).resolves.toBeGreaterThanOrEqual(3);
      await expect(tokens.rotate(id(13), userId, { jti: id(17), expiresAt: later() })).resolves.toEqual({ outcome: 'reused' });
    });
  });

  describe('CRUD repositories', () => {
    it('maps a duplicate email to a conflict and normalises case', async () => {
      const users = new PgUserRepository(pool);
      const u = await users.create({ email: 'New@Shellgrade.Test', passwordHash: 'x', firstname: 'N', lastname: 'U', role: 'student' });
      expect(u.email).toBe('new@shellgrade.test');
      const err = await users
        .create({ email: 'new@shellgrade.test', passwordHash: 'x', firstname: '', lastname: '', role: 'student' })
        .catch((e: unknown) => e);
      expect((err as DomainError).kind).toBe('conflict');
      expect((await users.findCredentials(' NEW@shellgrade.test '))?.user.id).toBe(u.id);
    });

    it('keeps sequence order and replaces it on update', async () => {
      const sequences = new PgSequenceRepository(pool);
      const [a, b] = [seeded.exerciseIds['paper-scripts']!, seeded.exerciseIds['file-permissions']!];
      const s = await sequences.create({ name: 'ordered', description: '', exerciseIds: [b, a] });
      expect(s.exerciseIds).toEqual([b, a]);
      expect((await sequences.update(s.id, { exerciseIds: [a] }))!.exerciseIds).toEqual([a]);
      const err = await sequences.create({ name: 'bad', description: '', exerciseIds: [999_999] }).catch((e: unknown) => e);
      expect((err as DomainError).kind).toBe('conflict');
    });

    it('refuses to delete an exercise students have statements for', async () => {
      const err = await new PgExerciseRepository(pool).delete(seeded.csvExerciseId).catch((e: unknown) => e);
      expect((err as DomainError).kind).toBe('conflict');
    });

    it('updates and clears a statement deadline', async () => {
      const statements = new PgStatementRepository(pool);
      const id = seeded.students[2]!.statementId;
      const when = new Date('2030-01-01T00:00:00Z');
      expect((await statements.update(id, { deadline: when }))!.deadline).toEqual(when);
      expect((await statements.update(id, { statementHtml: '<p>x</p>' }))!.deadline).toEqual(when);
      expect((await statements.update(id, { deadline: null }))!.deadline).toBeNull();
    });
  });
});
