/** inTransaction against real PostgreSQL: what fn wrote is kept when it resolves and gone when it throws. */
import { createPool } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import type { Pool } from 'pg';
import { inTransaction } from '@shellgrade/sql-transaction';

let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
  await pool.query('CREATE TABLE notes (body text NOT NULL)');
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const bodies = async () => (await pool.query<{ body: string }>('SELECT body FROM notes ORDER BY body')).rows.map((r) => r.body);

test('commits what fn wrote and returns its result', async () => {
  await expect(inTransaction(pool, async (c) => {
    await c.query("INSERT INTO notes VALUES ('kept')");
    return 7;
  })).resolves.toBe(7);
  expect(await bodies()).toEqual(['kept']);
});

test("rolls back everything fn wrote when it throws, and rethrows fn's error", async () => {
  await expect(inTransaction(pool, async (c) => {
    await c.query("INSERT INTO notes VALUES ('first')");
    await c.query("INSERT INTO notes VALUES ('second')");
    throw new Error('the seed failed half-way');
  })).rejects.toThrow('the seed failed half-way');
  expect(await bodies()).toEqual(['kept']);
  // Every client went back to the pool: a third transaction still gets one of the two.
  await inTransaction(pool, async (c) => c.query('SELECT 1'));
  expect(pool.totalCount - pool.idleCount).toBe(0);
});
