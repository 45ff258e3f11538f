import { Pool, types } from 'pg';

// int8 (count(*), sums) fits comfortably in a JS number for this application's sizes.
types.setTypeParser(types.builtins.INT8, (v) => Number(v));

export interface PoolOptions {
  databaseUrl: string;
  /** Maximum connections of this process (spec: database.pool). */
  size: number;
  /** An idle connection is closed after this long (spec: database.idleTimeoutMs). */
  idleTimeoutMs: number;
  /** PostgreSQL's synchronous_commit for every connection of the pool (spec: database.synchronousCommit), whatever the server's own; the server's when absent (tools, tests). */
  synchronousCommit?: 'on' | 'off';
}

export function createPool({ databaseUrl, size, idleTimeoutMs, synchronousCommit }: PoolOptions): Pool {
  const pool = new Pool({
    connectionString: databaseUrl,
    max: size,
    idleTimeoutMillis: idleTimeoutMs,
    // Set at connection start (the startup packet's options): no statement, no round trip per query.
    ...(synchronousCommit ? { options: `-c synchronous_commit=${synchronousCommit}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}
