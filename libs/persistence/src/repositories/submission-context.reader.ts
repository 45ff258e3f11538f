import { type SubmissionContext, type SubmissionContextReader, notFound } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { one } from '../queryable';
import { type ExerciseRow, type StatementRow, toExercise, toStatement } from '../rows';

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

export class PgSubmissionContextReader implements SubmissionContextReader {
  constructor(private readonly pool: Pool) {}

  /** One round trip; the statement must belong to the user and be about the exercise. */
  async load(userId: number, statementId: number, exerciseId: number): Promise<SubmissionContext> {
    const row = await one<JoinedRow>(
      this.pool,
      `SELECT s.id, s.user_id, s.session_id, s.exercise_id, s.statement_html, s.question_archive, s.deadline,
              e.slug AS ex_slug, e.name AS ex_name, e.statement_html AS ex_statement_html,
              e.question_archive AS ex_question_archive, e.grader_script AS ex_grader_script,
              e.state AS ex_state, e.locale AS ex_locale, e.skills AS ex_skills, e.author_id AS ex_author_id,
              b.starts_at AS session_starts_at, b.ends_at AS session_ends_at,
              EXISTS (SELECT 1 FROM enrolments en WHERE en.session_id = s.session_id AND en.user_id = s.user_id) AS enrolled
         FROM student_statements s
         JOIN exercises e ON e.id = s.exercise_id
         JOIN business_sessions b ON b.id = s.session_id
        WHERE s.id = $1 AND s.user_id = $2 AND s.exercise_id = $3`,
      [statementId, userId, exerciseId],
    );
    if (!row) throw notFound('student statement', statementId);
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
}
