/**
 * Seeds a load-test-ready database: admin, teachers, N students, the exercise catalog, a
 * sequence of every exercise, a session with its enrolment key, enrolments and a student
 * statement per student × exercise. Idempotent (upserts keyed by email/slug/name), one
 * transaction, set-based inserts: N = 1000 takes well under a second of SQL.
 *
 * Seeded students share one password, hashed ONCE (salted scrypt) and the same hash stored
 * for all of them: acceptable for throwaway load-test accounts, and it keeps seeding from
 * costing N × 50 ms of KDF. Real accounts (created through the API) each get their own salt.
 */
import { hashEnrolmentKey, hashPassword } from '@shellgrade/auth';
import type { Role } from '@shellgrade/domain';
import type { CatalogExercise as GradingCatalogExercise } from '@shellgrade/grading';
import { inTransaction } from '@shellgrade/sql-transaction';
import type { Pool, PoolClient } from 'pg';

/** What the seed needs of a catalog exercise (libs/grading's loadCatalog() returns these and more). */
export type CatalogExercise = Omit<GradingCatalogExercise, 'topFolder'>;

export interface SeedOptions {
  students: number;
  teachers: number;
  catalog: CatalogExercise[];
  /** scrypt cost (log2 N) for the seeded hashes. */
  kdfCost: number;
  passwords?: Partial<Record<Role, string>>;
  /** Exercise whose ex_id / ps_id go into the CSV (the paper's payload). */
  csvExerciseSlug?: string;
}

export interface SeededStudent {
  email: string;
  password: string;
  userId: number;
  /** The student's statement id for the CSV exercise. */
  statementId: number;
}

export interface SeedResult {
  adminId: number;
  teacherIds: number[];
  students: SeededStudent[];
  exerciseIds: Record<string, number>;
  csvExerciseId: number;
  sequenceId: number;
  sessionId: number;
  statements: number;
}

export const SEED_PASSWORDS: Record<Role, string> = {
  admin: 'admin-password',
  teacher: 'teacher-password',
  student: 'student-password',
};
export const SEED_SESSION_NAME = 'Seeded session';
export const SEED_SEQUENCE_NAME = 'Seeded sequence';
export const SEED_ENROLMENT_KEY = 'shellgrade-enrol';
export const studentEmail = (i: number) => `student${i}@shellgrade.test`;

interface SeedUser {
  email: string;
  firstname: string;
  lastname: string;
  role: Role;
  hash: string;
}

export async function seed(pool: Pool, opts: SeedOptions): Promise<SeedResult> {
  if (opts.catalog.length === 0) throw new Error('the exercise catalog is empty');
  const passwords = { ...SEED_PASSWORDS, ...opts.passwords };
  const [adminHash, teacherHash, studentHash] = await Promise.all(
    (['admin', 'teacher', 'student'] as const).map((r) => hashPassword(passwords[r], opts.kdfCost)),
  );
  const enrolmentKeyHash = await hashEnrolmentKey(SEED_ENROLMENT_KEY, opts.kdfCost);
  const users: SeedUser[] = [
    { email: 'admin@shellgrade.test', firstname: 'Ada', lastname: 'Admin', role: 'admin', hash: adminHash! },
    ...range(opts.teachers).map((i) => ({
      email: `teacher${i}@shellgrade.test`, firstname: 'Teacher', lastname: String(i), role: 'teacher' as const, hash: teacherHash!,
    })),
    ...range(opts.students).map((i) => ({
      email: studentEmail(i), firstname: 'Student', lastname: String(i), role: 'student' as const, hash: studentHash!,
    })),
  ];

  return inTransaction(pool, async (c) => {
    const ids = await upsertUsers(c, users);
    const adminId = ids.get('admin@shellgrade.test')!;
    const teacherIds = users.filter((u) => u.role === 'teacher').map((u) => ids.get(u.email)!);
    const studentIds = users.filter((u) => u.role === 'student').map((u) => ids.get(u.email)!);
    const authorId = teacherIds[0] ?? adminId;

    const exerciseIds = await upsertExercises(c, opts.catalog, authorId);
    const orderedExerciseIds = opts.catalog.map((e) => exerciseIds[e.slug]!);
    const sequenceId = await upsertSequence(c, orderedExerciseIds, authorId);
    const sessionId = await upsertSession(c, sequenceId, authorId, enrolmentKeyHash);

    await c.query('INSERT INTO enrolments (session_id, user_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING', [
      sessionId,
      studentIds,
    ]);
    const deadline = new Date(Date.now() + 365 * 24 * 3600 * 1000);
    const { rows: statements } = await c.query<{ id: number; user_id: number; exercise_id: number }>(
      `INSERT INTO student_statements (user_id, session_id, exercise_id, statement_html, question_archive, deadline)
       SELECT u.id, $2, e.id, e.statement_html, e.question_archive, $3
         FROM unnest($1::int[]) AS u(id) CROSS JOIN exercises e
        WHERE e.id = ANY($4::int[])
       ON CONFLICT (user_id, session_id, exercise_id) DO UPDATE
         SET deadline = EXCLUDED.deadline, statement_html = EXCLUDED.statement_html,
             question_archive = EXCLUDED.question_archive
       RETURNING id, user_id, exercise_id`,
      [studentIds, sessionId, deadline, orderedExerciseIds],
    );

    const csvExerciseId = exerciseIds[opts.csvExerciseSlug ?? 'paper-scripts'] ?? orderedExerciseIds[0]!;
    const statementOf = new Map(statements.filter((s) => s.exercise_id === csvExerciseId).map((s) => [s.user_id, s.id]));
    const students = users
      .filter((u) => u.role === 'student')
      .map((u) => {
        const userId = ids.get(u.email)!;
        return { email: u.email, password: passwords.student, userId, statementId: statementOf.get(userId)! };
      });
    return { adminId, teacherIds, students, exerciseIds, csvExerciseId, sequenceId, sessionId, statements: statements.length };
  });
}

/** CSV for the load test: email,password,user_id,ex_id,ps_id (one row per student). */
export function seedCsv(result: SeedResult): string {
  const lines = result.students.map((s) => [s.email, s.password, s.userId, result.csvExerciseId, s.statementId].join(','));
  return ['email,password,user_id,ex_id,ps_id', ...lines].join('\n') + '\n';
}

async function upsertUsers(c: PoolClient, users: SeedUser[]): Promise<Map<string, number>> {
  const { rows } = await c.query<{ id: number; email: string }>(
    `INSERT INTO users (email, firstname, lastname, role, password_hash)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
     ON CONFLICT (email) DO UPDATE SET firstname = EXCLUDED.firstname, lastname = EXCLUDED.lastname,
       role = EXCLUDED.role, password_hash = EXCLUDED.password_hash
     RETURNING id, email`,
    [users.map((u) => u.email), users.map((u) => u.firstname), users.map((u) => u.lastname), users.map((u) => u.role), users.map((u) => u.hash)],
  );
  return new Map(rows.map((r) => [r.email, r.id]));
}

async function upsertExercises(c: PoolClient, catalog: CatalogExercise[], authorId: number): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const e of catalog) {
    const { rows } = await c.query<{ id: number }>(
      `INSERT INTO exercises (slug, name, statement_html, question_archive, grader_script, state, locale, skills, author_id)
       VALUES ($1, $2, $3, $4, $5, 'published', $6, $7, $8)
       ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, statement_html = EXCLUDED.statement_html,
         question_archive = EXCLUDED.question_archive, grader_script = EXCLUDED.grader_script, state = 'published',
         locale = EXCLUDED.locale, skills = EXCLUDED.skills, updated_at = now()
       RETURNING id`,
      [e.slug, e.name, e.statementHtml, e.questionArchive, e.graderScript, e.locale, e.skills, authorId],
    );
    ids[e.slug] = rows[0]!.id;
  }
  return ids;
}

async function upsertSequence(c: PoolClient, exerciseIds: number[], authorId: number): Promise<number> {
  const { rows } = await c.query<{ id: number }>(
    `INSERT INTO sequences (name, description, author_id) VALUES ($1, 'Every catalog exercise', $2)
     ON CONFLICT (name) DO UPDATE SET description = EXCLUDED.description, author_id = EXCLUDED.author_id RETURNING id`,
    [SEED_SEQUENCE_NAME, authorId],
  );
  const sequenceId = rows[0]!.id;
  await c.query('DELETE FROM sequence_exercises WHERE sequence_id = $1', [sequenceId]);
  await c.query(
    `INSERT INTO sequence_exercises (sequence_id, exercise_id, position)
     SELECT $1, ex_id, ord - 1 FROM unnest($2::int[]) WITH ORDINALITY AS t(ex_id, ord)`,
    [sequenceId, exerciseIds],
  );
  return sequenceId;
}

async function upsertSession(c: PoolClient, sequenceId: number, teacherId: number, enrolmentKeyHash: string): Promise<number> {
  const { rows } = await c.query<{ id: number }>(
    `INSERT INTO business_sessions (name, sequence_id, starts_at, ends_at, enrolment_key_hash, teacher_id)
     VALUES ($1, $2, now() - interval '1 day', now() + interval '365 days', $3, $4)
     ON CONFLICT (name) DO UPDATE SET sequence_id = EXCLUDED.sequence_id, starts_at = EXCLUDED.starts_at,
       ends_at = EXCLUDED.ends_at, enrolment_key_hash = EXCLUDED.enrolment_key_hash, teacher_id = EXCLUDED.teacher_id
     RETURNING id`,
    [SEED_SESSION_NAME, sequenceId, enrolmentKeyHash, teacherId],
  );
  return rows[0]!.id;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

