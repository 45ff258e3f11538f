/**
 * The spec's tunables reach the adapters they configure, with nothing hard-coded behind
 * them: the monolith built from a spec whose http.maxArchiveBytes is 4 KiB refuses a larger
 * multipart upload with 413 while streaming it, and parses a smaller one (a broken archive:
 * 422). The body limits derive from that one value (libs/http bodyLimitFor). Real
 * PostgreSQL (fresh database, seeded), the monolith's own composition root over HTTP.
 */
import type { INestApplication } from '@nestjs/common';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS } from '@shellgrade/admin-cli/seed';
import { loadCatalog } from '@shellgrade/grading';
import { loadConnections, loadVariant, processConfigOf, type ServiceConfig } from '@shellgrade/variant';
import { startTestApp } from '@shellgrade/wiring/testing';
import request from 'supertest';
import { MonolithModule } from '../src/app.module';

const ARCHIVE_LIMIT = 4096;

describe('monolith built from a spec: http limits', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let ids: { exerciseId: number; statementId: number };

  beforeAll(async () => {
    db = await createTestDatabase();
    const pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
    const seeded = await seed(pool, { students: 1, teachers: 0, catalog: await loadCatalog(), kdfCost: 4 });
    await pool.end();
    ids = { exerciseId: seeded.csvExerciseId, statementId: seeded.students[0]!.statementId };
    const base = loadVariant('naked-mon');
    const spec = { ...base, auth: { ...base.auth, kdfCost: 4 }, http: { ...base.http, maxArchiveBytes: ARCHIVE_LIMIT } };
    const cfg: ServiceConfig = {
      ...processConfigOf(spec, 'monolith', 0, { host: '127.0.0.1', port: 0 }),
      connections: loadConnections({ DATABASE_URL: db.url }),
    };
    app = await startTestApp([MonolithModule.forRoot(cfg)], cfg);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const submit = async (bytes: number) => {
    const agent = request.agent(app.getHttpServer());
    await agent.post('/api/user/login').send({ email: 'student1@shellgrade.test', password: SEED_PASSWORDS.student }).expect(200);
    return agent
      .post('/api/exercise-production')
      .field('ex_id', String(ids.exerciseId))
      .field('ps_id', String(ids.statementId))
      .attach('file', Buffer.alloc(bytes, 1), 'answer.tgz');
  };

  it('refuses a multipart upload above http.maxArchiveBytes with 413', async () => {
    const res = await submit(ARCHIVE_LIMIT + 1024);
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('parses one below it (not an archive: 422)', async () => {
    const res = await submit(ARCHIVE_LIMIT - 1024);
    expect(res.status).toBe(422);
  });
});
