import type { Queryable } from '@shellgrade/persistence';

export interface DatabaseStats {
  rows: Record<string, number>;
  /** pg_total_relation_size('exercise_productions'): table + TOAST (inline archives) + indexes. */
  productionsTotalBytes: number;
  databaseBytes: number;
}

const TABLES = [
  'users',
  'refresh_tokens',
  'exercises',
  'sequences',
  'sequence_exercises',
  'business_sessions',
  'enrolments',
  'student_statements',
  'exercise_productions',
] as const;

export async function databaseStats(db: Queryable): Promise<DatabaseStats> {
  const counts = TABLES.map((t) => `(SELECT count(*) FROM ${t}) AS ${t}`).join(', ');
  const { rows } = await db.query<Record<string, number>>(
    `SELECT ${counts}, pg_total_relation_size('exercise_productions') AS productions_bytes,
            pg_database_size(current_database()) AS database_bytes`,
  );
  const r = rows[0]!;
  return {
    rows: Object.fromEntries(TABLES.map((t) => [t, Number(r[t])])),
    productionsTotalBytes: Number(r.productions_bytes),
    databaseBytes: Number(r.database_bytes),
  };
}
