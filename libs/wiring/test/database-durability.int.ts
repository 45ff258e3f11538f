/**
 * spec.database.synchronousCommit reaches every connection the services' pool opens (real
 * PostgreSQL): `on` unless the spec says `off`, the knob `bench pg-statements --synchronous-commit`
 * turns to price durability. The test database's own default is made `off` first, so `on` is seen
 * to come from the spec, not from the server. Read back (SHOW) on two connections held at once.
 */
import { Test } from '@nestjs/testing';
import { PG_POOL } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { loadConnections, loadVariant, processConfigOf, type ServiceConfig } from '@shellgrade/variant';
import { Client, type Pool } from 'pg';
import { database } from '../src';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  const owner = new Client({ connectionString: db.url });
  await owner.connect();
  try {
    await owner.query(`ALTER DATABASE ${db.name} SET synchronous_commit = off`);
  } finally {
    await owner.end();
  }
  // A connection without the spec's setting now starts with the database's (off).
  const bare = new Client({ connectionString: db.url });
  await bare.connect();
  try {
    expect((await bare.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit).toBe('off');
  } finally {
    await bare.end();
  }
});
afterAll(async () => {
  await db?.drop();
});

/** naked-mon's monolith against the test database, its synchronous_commit as given (undefined: the spec's default). */
function cfgOf(synchronousCommit: 'on' | 'off' | undefined): ServiceConfig {
  const base = loadVariant('naked-mon');
  const spec = synchronousCommit ? { ...base, database: { ...base.database, synchronousCommit } } : base;
  return { ...processConfigOf(spec, 'monolith', 0, { host: '127.0.0.1', port: 3000 }), connections: loadConnections({ DATABASE_URL: db.url }) };
}

/** synchronous_commit as two connections of the wired pool, held at once, see it. */
async function seenByTwoConnections(cfg: ServiceConfig): Promise<string[]> {
  const app = await (await Test.createTestingModule({ providers: database(cfg) }).compile()).init();
  try {
    const pool = app.get<Pool>(PG_POOL);
    const clients = [await pool.connect(), await pool.connect()];
    try {
      return await Promise.all(clients.map(async (c) => (await c.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit));
    } finally {
      for (const c of clients) c.release();
    }
  } finally {
    await app.close();
  }
}

describe('spec.database.synchronousCommit', () => {
  it("is on by default, whatever the database's own default: every write answered once its WAL is on disk", async () => {
    expect(cfgOf(undefined).spec.database.synchronousCommit).toBe('on');
    expect(await seenByTwoConnections(cfgOf(undefined))).toEqual(['on', 'on']);
  });

  it('off reaches every connection of the pool', async () => {
    expect(await seenByTwoConnections(cfgOf('off'))).toEqual(['off', 'off']);
  });
});
