import type { Exercise, ExercisePatch, ExerciseRepository, ExerciseState, NewExercise } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { allAs, deleteById, insertOne, oneAs, writeOne } from '../queryable';
import { EXERCISE_COLUMNS, toExercise } from '../rows';

export type { ExercisePatch, NewExercise } from '@shellgrade/domain';

/** Columns without the (large) archive and grader: for listings. */
const SUMMARY_COLUMNS = `id, slug, name, statement_html, ''::bytea AS question_archive, '' AS grader_script, state, locale, skills, author_id`;

export class PgExerciseRepository implements ExerciseRepository {
  constructor(private readonly pool: Pool) {}

  async findById(id: number): Promise<Exercise | null> {
    return oneAs(this.pool, `SELECT ${EXERCISE_COLUMNS} FROM exercises WHERE id = $1`, [id], toExercise);
  }

  async findBySlug(slug: string): Promise<Exercise | null> {
    return oneAs(this.pool, `SELECT ${EXERCISE_COLUMNS} FROM exercises WHERE slug = $1`, [slug], toExercise);
  }

  /** Listing without archive bytes and grader source (empty in the result). */
  async list(opts: { state?: ExerciseState; limit: number; offset: number }): Promise<Exercise[]> {
    return allAs(
      this.pool,
      `SELECT ${SUMMARY_COLUMNS} FROM exercises WHERE ($1::text IS NULL OR state = $1) ORDER BY id LIMIT $2 OFFSET $3`,
      [opts.state ?? null, opts.limit, opts.offset],
      toExercise,
    );
  }

  async create(e: NewExercise): Promise<Exercise> {
    const row = { slug: e.slug, name: e.name, statement_html: e.statementHtml, question_archive: e.questionArchive, grader_script: e.graderScript, state: e.state, locale: e.locale, skills: e.skills, author_id: e.authorId };
    return insertOne(this.pool, 'exercises', row, EXERCISE_COLUMNS, toExercise, `exercise ${e.slug}`);
  }

  /** Insert or refresh by slug (seeding the catalog twice keeps ids stable). */
  async upsertBySlug(e: NewExercise): Promise<Exercise> {
    const row = await oneAs(
      this.pool,
      `INSERT INTO exercises (slug, name, statement_html, question_archive, grader_script, state, locale, skills, author_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, statement_html = EXCLUDED.statement_html,
         question_archive = EXCLUDED.question_archive, grader_script = EXCLUDED.grader_script, state = EXCLUDED.state,
         locale = EXCLUDED.locale, skills = EXCLUDED.skills, updated_at = now()
       RETURNING ${EXERCISE_COLUMNS}`,
      [e.slug, e.name, e.statementHtml, e.questionArchive, e.graderScript, e.state, e.locale, e.skills, e.authorId],
      toExercise,
    );
    return row!;
  }

  async update(id: number, p: ExercisePatch): Promise<Exercise | null> {
    return writeOne(
      this.pool,
      `UPDATE exercises SET slug = COALESCE($2, slug), name = COALESCE($3, name),
              statement_html = COALESCE($4, statement_html), question_archive = COALESCE($5, question_archive),
              grader_script = COALESCE($6, grader_script), state = COALESCE($7, state), locale = COALESCE($8, locale),
              skills = COALESCE($9, skills), updated_at = now()
        WHERE id = $1 RETURNING ${EXERCISE_COLUMNS}`,
      [id, p.slug ?? null, p.name ?? null, p.statementHtml ?? null, p.questionArchive ?? null, p.graderScript ?? null,
        p.state ?? null, p.locale ?? null, p.skills ?? null],
      toExercise,
      `exercise ${id}`,
    );
  }

  async delete(id: number): Promise<boolean> {
    return deleteById(this.pool, 'exercises', id, `exercise ${id}`);
  }
}
