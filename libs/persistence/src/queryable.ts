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
