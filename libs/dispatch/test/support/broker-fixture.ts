/**
 * A fresh migrated PostgreSQL database with one student statement, and the real domain
 * services around it (repositories, archive store, SubmissionService, GradingWorker), for
 * the broker integration tests. Also the audit query the fault tests end with.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import {
  GradingWorker,
  SubmissionService,
  type ArchiveValidator,
  type ExerciseProduction,
  type Grader,
  type GradingDispatch,
} from '@shellgrade/domain';
import {
  PgProductionRepository,
  PgSubmissionContextReader,
  PostgresArchiveStore,
  createPool,
  createTestDatabase,
  type TestDatabase,
} from './real-libs';
import { accountFor, type Audit } from './accounting';
import { PAPER } from './real-grader';
import { validateArchive } from '@shellgrade/grading';
// The spec's archive bounds (their one default).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { archiveBoundsOf, graderSchema, httpSchema } from '@shellgrade/variant';

export interface Seeded {
  userId: number;
  exerciseId: number;
  statementId: number;
}

/** The real validator, as the services bind it. */
const bounds = archiveBoundsOf({ http: httpSchema.parse({}), grader: graderSchema.parse({}) });
const validator: ArchiveValidator = { validate: async (bytes) => void (await validateArchive(bytes, bounds)) };

export class BrokerFixture {
  readonly productions: PgProductionRepository;
  readonly context: PgSubmissionContextReader;
  readonly archives: PostgresArchiveStore;

  private constructor(
    readonly db: TestDatabase,
    readonly pool: Pool,
    readonly seeded: Seeded,
  ) {
    this.productions = new PgProductionRepository(pool);
    this.context = new PgSubmissionContextReader(pool);
    this.archives = new PostgresArchiveStore(pool);
  }

  static async create(): Promise<BrokerFixture> {
    const db = await createTestDatabase();
    const pool = createPool({ databaseUrl: db.url, size: 20, idleTimeoutMs: 30_000 });
    const seeded = await seedStatement(pool);
    return new BrokerFixture(db, pool, seeded);
  }

  worker(grader: Grader): GradingWorker {
    return new GradingWorker(this.context, this.productions, this.archives, grader);
  }

  submissions(dispatch: GradingDispatch): SubmissionService {
    return new SubmissionService(this.context, validator, this.productions, this.archives, dispatch);
  }

  /** Submits `archive` as the seeded student; the key is returned with the outcome. */
  async submit(
    service: SubmissionService,
    archive: Buffer,
    receivedAt?: number,
    key: string = randomUUID(),
  ): Promise<{ key: string; production?: ExerciseProduction; error?: unknown }> {
    try {
      const production = await service.submit({ ...this.seeded, archive, submissionKey: key, receivedAt });
      return { key, production };
    } catch (error) {
      return { key, error };
    }
  }

  /** Polls until every production is final (or the timeout passes); returns the pending count. */
  async waitAllFinal(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM exercise_productions WHERE status NOT IN ('graded', 'failed')`,
      );
      if (rows[0].n === 0 || Date.now() > deadline) return rows[0].n;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /**
   * Client-side accounting against what the database holds: `acceptedIds` are the productions
   * the client was told were accepted (201/202 with an ep_id), `cutKeys` the submission keys of
   * requests whose answer never came. Every accepted id must be there and final; a cut one may
   * be absent or final, never stuck; any other row is one the client never asked for
   * (a duplicate or a phantom). Printed so the counts can be pasted into the issue.
   */
  async audit(label: string, acceptedIds: number[], cutKeys: string[] = []): Promise<Audit> {
    const { rows } = await this.pool.query<{ id: number; submission_key: string; status: string }>(
      'SELECT id, submission_key, status FROM exercise_productions',
    );
    const audit = accountFor(acceptedIds, cutKeys, rows);
    console.log(`AUDIT ${label}: ${JSON.stringify(audit)}`);
    return audit;
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.db.drop();
  }
}

export { type Audit } from './accounting';

async function seedStatement(pool: Pool): Promise<Seeded> {
  const user = await pool.query<{ id: number }>(
    `INSERT INTO users (email, password_hash, role) VALUES ('broker-student@shellgrade.test', 'x', 'student') RETURNING id`,
  );
  // The paper's exercise from the catalog: the real grader grades real answers.
  const exercise = await pool.query<{ id: number }>(
    `INSERT INTO exercises (slug, name, statement_html, question_archive, grader_script, state, locale)
     VALUES ($1, $2, $3, $4, $5, 'published', $6) RETURNING id`,
    [PAPER.slug, PAPER.name, PAPER.statementHtml, PAPER.questionArchive, PAPER.graderScript, PAPER.locale],
  );
  const sequence = await pool.query<{ id: number }>(`INSERT INTO sequences (name) VALUES ('broker seq') RETURNING id`);
  const session = await pool.query<{ id: number }>(
    `INSERT INTO business_sessions (name, sequence_id, starts_at, ends_at, enrolment_key_hash)
     VALUES ('broker session', $1, now() - interval '1 day', now() + interval '1 day', 'k') RETURNING id`,
    [sequence.rows[0].id],
  );
  // Submissions are accepted only from students enrolled in the statement's session.
  await pool.query('INSERT INTO enrolments (session_id, user_id) VALUES ($1, $2)', [session.rows[0].id, user.rows[0].id]);
  const statement = await pool.query<{ id: number }>(
    `INSERT INTO student_statements (user_id, session_id, exercise_id, statement_html, question_archive)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [user.rows[0].id, session.rows[0].id, exercise.rows[0].id, PAPER.statementHtml, PAPER.questionArchive],
  );
  return { userId: user.rows[0].id, exerciseId: exercise.rows[0].id, statementId: statement.rows[0].id };
}
