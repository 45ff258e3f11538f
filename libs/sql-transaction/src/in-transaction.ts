import type { Pool, PoolClient } from 'pg';

/**
 * Runs fn in a transaction on a dedicated client of the pool: committed when fn resolves, rolled
 * back when it throws (the error is fn's, not the rollback's). A library of its own, below both
 * libs/persistence and the seed (persistence's tests seed their database, so neither may import the other).
 */
export async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
