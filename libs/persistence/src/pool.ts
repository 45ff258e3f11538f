import { Pool, types } from 'pg';

// int8 (count(*), sums) fits comfortably in a JS number for this application's sizes.
types.setTypeParser(types.builtins.INT8, (v) => Number(v));

export interface PoolOptions {
  databaseUrl: string;
  /** Maximum connections of this process (SG_DB_POOL). */
  size: number;
}

export function createPool({ databaseUrl, size }: PoolOptions): Pool {
  const pool = new Pool({ connectionString: databaseUrl, max: size, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}
