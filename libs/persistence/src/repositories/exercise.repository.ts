import type { Exercise, ExercisePatch, ExerciseRepository, ExerciseState, NewExercise } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { one, translatePgError } from '../queryable';
import { EXERCISE_COLUMNS, type ExerciseRow, toExercise } from '../rows';

export type { ExercisePatch, NewExercise } from '@shellgrade/domain';

/** Columns without the (large) archive and grader: for listings. */
const SUMMARY_COLUMNS = `id, slug, name, statement_html, ''::bytea AS question_archive, '' AS grader_script, state, locale, skills, author_id`;

export class PgExerciseRepository implements ExerciseRepository {
  constructor(private readonly pool: Pool) {}

  async findById(id: number): Promise<Exercise | null> {
    const row = await one<ExerciseRow>(this.pool, `SELECT ${EXERCISE_COLUMNS} FROM exercises WHERE id = $1`, [id]);
    return row && toExercise(row);
  }

  async findBySlug(slug: string): Promise<Exercise | null> {
    const row = await one<ExerciseRow>(this.pool, `SELECT ${EXERCISE_COLUMNS} FROM exercises WHERE slug = $1`, [slug]);
    return row && toExercise(row);
  }

  /** Listing without archive bytes and grader source (empty in the result). */
  async list(opts: { state?: ExerciseState; limit: number; offset: number }): Promise<Exercise[]> {
    const { rows } = await this.pool.query<ExerciseRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM exercises WHERE ($1::text IS NULL OR state = $1) ORDER BY id LIMIT $2 OFFSET $3`,
      [opts.state ?? null, opts.limit, opts.offset],
    );
    return rows.map(toExercise);
  }

  async create(e: NewExercise): Promise<Exercise> {
    try {
      const row = await one<ExerciseRow>(
        this.pool,
        `INSERT INTO exercises (slug, name, statement_html, question_archive, grader_script, state, locale, skills, author_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${EXERCISE_COLUMNS}`,
        [e.slug, e.name, e.statementHtml, e.questionArchive, e.graderScript, e.state, e.locale, e.skills, e.authorId],
      );
      return toExercise(row!);
    } catch (err) {
      translatePgError(err, `exercise ${e.slug}`);
    }
  }

  /** Insert or refresh by slug (seeding the catalog twice keeps ids stable). */
  async upsertBySlug(e: NewExercise): Promise<Exercise> {
    const row = await one<ExerciseRow>(
      this.pool,
      `INSERT INTO exercises (slug, name, statement_html, question_archive, grader_script, state, locale, skills, author_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, statement_html = EXCLUDED.statement_html,
         question_archive = EXCLUDED.question_archive, grader_script = EXCLUDED.grader_script, state = EXCLUDED.state,
         locale = EXCLUDED.locale, skills = EXCLUDED.skills, updated_at = now()
       RETURNING ${EXERCISE_COLUMNS}`,
      [e.slug, e.name, e.statementHtml, e.questionArchive, e.graderScript, e.state, e.locale, e.skills, e.authorId],
    );
    return toExercise(row!);
  }

  async update(id: number, p: ExercisePatch): Promise<Exercise | null> {
    try {
      const row = await one<ExerciseRow>(
        this.pool,
        `UPDATE exercises SET slug = COALESCE($2, slug), name = COALESCE($3, name),
                statement_html = COALESCE($4, statement_html), question_archive = COALESCE($5, question_archive),
                grader_script = COALESCE($6, grader_script), state = COALESCE($7, state), locale = COALESCE($8, locale),
                skills = COALESCE($9, skills), updated_at = now()
          WHERE id = $1 RETURNING ${EXERCISE_COLUMNS}`,
        [id, p.slug ?? null, p.name ?? null, p.statementHtml ?? null, p.questionArchive ?? null, p.graderScript ?? null,
          p.state ?? null, p.locale ?? null, p.skills ?? null],
      );
      return row && toExercise(row);
    } catch (err) {
      translatePgError(err, `exercise ${id}`);
    }
  }

  async delete(id: number): Promise<boolean> {
    try {
      const { rowCount } = await this.pool.query('DELETE FROM exercises WHERE id = $1', [id]);
      return rowCount === 1;
    } catch (err) {
      translatePgError(err, `exercise ${id}`);
    }
  }
}
