import { type Exercise, type StudentStatement, type SubmissionContextReader, notFound } from '@shellgrade/domain';
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
}

export class PgSubmissionContextReader implements SubmissionContextReader {
  constructor(private readonly pool: Pool) {}

  /** One round trip; the statement must belong to the user and be about the exercise. */
  async load(userId: number, statementId: number, exerciseId: number): Promise<{ statement: StudentStatement; exercise: Exercise }> {
    const row = await one<JoinedRow>(
      this.pool,
      `SELECT s.id, s.user_id, s.session_id, s.exercise_id, s.statement_html, s.question_archive, s.deadline,
              e.slug AS ex_slug, e.name AS ex_name, e.statement_html AS ex_statement_html,
              e.question_archive AS ex_question_archive, e.grader_script AS ex_grader_script,
              e.state AS ex_state, e.locale AS ex_locale, e.skills AS ex_skills, e.author_id AS ex_author_id
         FROM student_statements s
         JOIN exercises e ON e.id = s.exercise_id
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
    };
  }
}
