import { type ExerciseProduction, type LoadedForGrading, type SubmissionContext, type SubmissionContextReader, notFound } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { one, prepared } from '../queryable';
import { type ExerciseRow, PRODUCTION_COLUMNS, type ProductionRow, type StatementRow, toExercise, toProduction, toStatement } from '../rows';

interface JoinedRow extends StatementRow {
  ex_slug: string;
  ex_name: string;
  ex_statement_html: string;
  ex_question_archive: Buffer;
  ex_grader_script: string;
  ex_state: ExerciseRow['state'];
  ex_locale: string;
  ex_skills: string[];
  ex_author_id: number | null;
  session_starts_at: Date;
  session_ends_at: Date;
  enrolled: boolean;
}

/** The statement, its exercise and session, and the enrolment, as one SELECT list over s, e and b. */
const CONTEXT_COLUMNS = `s.id, s.user_id, s.session_id, s.exercise_id, s.statement_html, s.question_archive, s.deadline,
              e.slug AS ex_slug, e.name AS ex_name, e.statement_html AS ex_statement_html,
              e.question_archive AS ex_question_archive, e.grader_script AS ex_grader_script,
              e.state AS ex_state, e.locale AS ex_locale, e.skills AS ex_skills, e.author_id AS ex_author_id,
              b.starts_at AS session_starts_at, b.ends_at AS session_ends_at,
              EXISTS (SELECT 1 FROM enrolments en WHERE en.session_id = s.session_id AND en.user_id = s.user_id) AS enrolled`;

const CONTEXT_JOINS = `JOIN exercises e ON e.id = s.exercise_id
         JOIN business_sessions b ON b.id = s.session_id`;

/** The production's own columns beside the context's, each prefixed so none collides. */
const PRODUCTION_PREFIX = 'prod_';
const PREFIXED_PRODUCTION_COLUMNS = PRODUCTION_COLUMNS.split(',')
  .map((c) => `p.${c.trim()} AS ${PRODUCTION_PREFIX}${c.trim()}`)
  .join(', ');

// Every submission reads the first; a grading worker behind a broker one of the other two.
const LOAD = prepared(`SELECT ${CONTEXT_COLUMNS}
         FROM student_statements s
         ${CONTEXT_JOINS}
        WHERE s.id = $1 AND s.user_id = $2 AND s.exercise_id = $3`);
const READ_FOR_GRADING = prepared(`SELECT ${PREFIXED_PRODUCTION_COLUMNS}, ${CONTEXT_COLUMNS}
           FROM exercise_productions p
           LEFT JOIN (student_statements s ${CONTEXT_JOINS})
             ON s.id = p.statement_id AND s.user_id = p.user_id AND s.exercise_id = p.exercise_id
          WHERE p.id = $1`);
// The SELECT sees the row as it was before the CTE's UPDATE (one snapshot): `taken` says whether
// the UPDATE moved it, and the status is set to 'grading' by the caller when it did.
const TAKE_FOR_GRADING = prepared(`WITH taken AS (
         UPDATE exercise_productions SET status = 'grading'
          WHERE id = $1 AND status NOT IN ('graded', 'failed')
          RETURNING id)
       SELECT ${PREFIXED_PRODUCTION_COLUMNS}, p.archive AS prod_archive, t.id IS NOT NULL AS taken, ${CONTEXT_COLUMNS}
         FROM exercise_productions p
         LEFT JOIN taken t ON t.id = p.id
         LEFT JOIN (student_statements s ${CONTEXT_JOINS})
           ON s.id = p.statement_id AND s.user_id = p.user_id AND s.exercise_id = p.exercise_id
        WHERE p.id = $1`);

function productionOf(row: Record<string, unknown>): ExerciseProduction {
  const own = Object.fromEntries(
    Object.entries(row)
      .filter(([k]) => k.startsWith(PRODUCTION_PREFIX))
      .map(([k, v]) => [k.slice(PRODUCTION_PREFIX.length), v]),
  );
  return toProduction(own as unknown as ProductionRow);
}

function contextOf(row: JoinedRow): SubmissionContext {
  return {
    statement: toStatement(row),
    exercise: toExercise({
      id: row.exercise_id,
      slug: row.ex_slug,
      name: row.ex_name,
      statement_html: row.ex_statement_html,
      question_archive: row.ex_question_archive,
      grader_script: row.ex_grader_script,
      state: row.ex_state,
      locale: row.ex_locale,
      skills: row.ex_skills,
      author_id: row.ex_author_id,
    }),
    session: { id: row.session_id, startsAt: row.session_starts_at, endsAt: row.session_ends_at },
    enrolled: row.enrolled,
  };
}

export class PgSubmissionContextReader implements SubmissionContextReader {
  constructor(private readonly pool: Pool) {}

  /** One round trip; the statement must belong to the user and be about the exercise. */
  async load(userId: number, statementId: number, exerciseId: number): Promise<SubmissionContext> {
    const row = await one<JoinedRow>(this.pool, LOAD, [statementId, userId, exerciseId]);
    if (!row) throw notFound('student statement', statementId);
    return contextOf(row);
  }

  /**
   * One round trip for what two did (the production, then its context), under the same ownership
   * rule as load. `take`: the same statement also moves the production to 'grading' unless it is
   * final (a data-modifying CTE: the row's lock and the final-status guard are the UPDATE's, as
   * setStatus's) and returns the archive bytes of the row — what took three statements.
   */
  async loadForGrading(productionId: number, options: { take?: boolean } = {}): Promise<LoadedForGrading | null> {
    if (!options.take) {
      const row = await one<JoinedRow & Record<string, unknown>>(this.pool, READ_FOR_GRADING, [productionId]);
      if (!row) return null;
      return { production: productionOf(row), context: row.id === null ? null : contextOf(row) };
    }
    const row = await one<JoinedRow & Record<string, unknown> & { taken: boolean; prod_archive: Buffer | null }>(this.pool, TAKE_FOR_GRADING, [productionId]);
    if (!row) return null;
    const { prod_archive: archive, taken, ...rest } = row;
    const production = productionOf(rest);
    return {
      production: taken ? { ...production, status: 'grading' } : production,
      context: row.id === null ? null : contextOf(row),
      taken,
      archive,
    };
  }
}
