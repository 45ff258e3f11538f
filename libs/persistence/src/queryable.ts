import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DomainError } from '@shellgrade/domain';

/** A pool or a client inside a transaction: repositories accept either. */
export type Queryable = Pool | PoolClient;

/** A statement's text, and its name when it is prepared once per connection (`prepared`). */
export interface Statement {
  name?: string;
  text: string;
}

/**
 * A statement PostgreSQL parses and plans once per connection instead of at every call
 * (node-postgres named queries): what each request sends repeatedly, the hot path of every
 * request type. Named after its text, so two texts never share a name (which node-postgres
 * refuses) and the same text always has the same one.
 */
export function prepared(text: string): Statement {
  return { name: `sg_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`, text };
}

/** Runs a statement (text or `prepared`) with its parameters. */
export function run<T extends QueryResultRow>(db: Queryable, sql: string | Statement, params: unknown[] = []) {
  return db.query<T>(typeof sql === 'string' ? { text: sql, values: params } : { ...sql, values: params });
}

export async function one<T extends QueryResultRow>(db: Queryable, sql: string | Statement, params: unknown[] = []): Promise<T | null> {
  const { rows } = await run<T>(db, sql, params);
  return rows[0] ?? null;
}

/** The first row a statement returns, mapped to the domain (null when there is none). */
export async function oneAs<R extends QueryResultRow, T>(db: Queryable, sql: string | Statement, params: unknown[], map: (row: R) => T): Promise<T | null> {
  const row = await one<R>(db, sql, params);
  return row && map(row);
}

/** Every row a statement returns, mapped to the domain. */
export async function allAs<R extends QueryResultRow, T>(db: Queryable, sql: string | Statement, params: unknown[], map: (row: R) => T): Promise<T[]> {
  const { rows } = await run<R>(db, sql, params);
  return rows.map(map);
}

/**
 * A write (INSERT or UPDATE ... RETURNING) of one row, mapped to the domain; null when an
 * UPDATE matched no row. A constraint violation is the DomainError that names `what`.
 */
export async function writeOne<R extends QueryResultRow, T>(db: Queryable, sql: string, params: unknown[], map: (row: R) => T, what: string): Promise<T | null> {
  try {
    return await oneAs(db, sql, params, map);
  } catch (err) {
    translatePgError(err, what);
  }
}

/**
 * INSERT of one row given as column → value (the columns are this code's own names, never input),
 * RETURNING `returning`, mapped to the domain; a constraint violation is the DomainError naming `what`.
 */
export async function insertOne<R extends QueryResultRow, T>(db: Queryable, table: string, values: Record<string, unknown>, returning: string, map: (row: R) => T, what: string): Promise<T> {
  const columns = Object.keys(values);
  const placeholders = columns.map((_, i) => `$${i + 1}`);
  const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING ${returning}`;
  return (await writeOne(db, sql, Object.values(values), map, what))!;
}

/** Deletes the row of `table` with this id: whether there was one. A row still referenced is a conflict naming `what`. */
export async function deleteById(db: Queryable, table: string, id: number, what: string): Promise<boolean> {
  try {
    const { rowCount } = await db.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
    return rowCount === 1;
  } catch (err) {
    translatePgError(err, what);
  }
}

/** Maps PostgreSQL constraint violations to DomainError kinds the HTTP layer understands. */
export function pgErrorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

/**
 * Rewrites constraint violations as DomainErrors (409 duplicate or still-referenced row,
 * 400 check failure); anything else is rethrown untouched.
 */
export function translatePgError(err: unknown, what: string): never {
  const code = pgErrorCode(err);
  const detail = typeof err === 'object' && err !== null && 'detail' in err ? String((err as { detail: unknown }).detail) : undefined;
  if (code === '23505') throw new DomainError('conflict', `${what} already exists`, { detail });
  if (code === '23503') throw new DomainError('conflict', `${what} references a missing row or is still referenced`, { detail });
  if (code === '23514' || code === '22P02' || code === '22007' || code === '22008') {
    throw new DomainError('validation', `${what} has an invalid value`, { detail });
  }
  throw err;
}
