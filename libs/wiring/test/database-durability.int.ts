/**
 * spec.database.synchronousCommit reaches every connection the services' pool opens (real
 * PostgreSQL): `on` unless the spec says `off`, the knob `bench pg-statements --synchronous-commit`
 * turns to price durability. Read back from the server (SHOW), on two connections held at once.
 */
import { Test } from '@nestjs/testing';
import { PG_POOL } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { loadConnections, loadVariant, processConfigOf, type ServiceConfig } from '@shellgrade/variant';
import type { Pool } from 'pg';
import { database } from '../src';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
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
  it('is on by default: every write answered once its WAL is on disk', async () => {
    expect(cfgOf(undefined).spec.database.synchronousCommit).toBe('on');
    expect(await seenByTwoConnections(cfgOf(undefined))).toEqual(['on', 'on']);
  });

  it('off reaches every connection of the pool', async () => {
    expect(await seenByTwoConnections(cfgOf('off'))).toEqual(['off', 'off']);
  });
});
