import { DomainError } from '@shellgrade/domain';
import { createPool, PgProductionRepository } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed } from '@shellgrade/admin-cli/seed';
import type { Pool } from 'pg';
import { PostgresArchiveStore, sha256Hex } from '../src/postgres-archive-store';

const catalog = [
  { slug: 'paper-scripts', name: 'p', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: '', locale: 'en', skills: [] },
];

describe('PostgresArchiveStore (real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresArchiveStore;
  let productionId: number;
  const bytes = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0x00, 0x10]);

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, size: 4, idleTimeoutMs: 30_000 });
    const seeded = await seed(pool, { students: 1, teachers: 0, catalog, kdfCost: 4 });
    const s = seeded.students[0]!;
    const { production } = await new PgProductionRepository(pool).create({
      userId: s.userId,
      exerciseId: seeded.csvExerciseId,
      statementId: s.statementId,
      submissionKey: 'k1',
      archiveSize: bytes.length,
      archiveSha256: sha256Hex(bytes),
      status: 'received',
    });
    productionId = production.id;
    store = new PostgresArchiveStore(pool);
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('round-trips the bytes and reports their sha256', async () => {
    const { key, sha256 } = await store.put(productionId, bytes);
    expect(sha256).toBe(sha256Hex(bytes));
    expect(key).toContain(String(productionId));
    await expect(store.get(productionId)).resolves.toEqual(bytes);
  });

  it('detects corruption on read', async () => {
    await pool.query(`UPDATE exercise_productions SET archive = '\\x00'::bytea WHERE id = $1`, [productionId]);
    const err = await store.get(productionId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as Error).message).toMatch(/sha256 mismatch/);
    await store.put(productionId, bytes);
  });

  it('deletes the bytes but keeps the production', async () => {
    await store.delete(productionId);
    const err = await store.get(productionId).catch((e: unknown) => e);
    expect((err as DomainError).kind).toBe('not-found');
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM exercise_productions WHERE id = $1', [productionId]);
    expect(rows[0].n).toBe(1);
  });

  it('is not-found for an unknown production', async () => {
    const err = await store.put(999_999, bytes).catch((e: unknown) => e);
    expect((err as DomainError).kind).toBe('not-found');
  });
});
