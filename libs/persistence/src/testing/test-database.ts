/**
 * A fresh, migrated database per integration test file, so test files can run concurrently
 * against one shared server. Needs a role allowed to CREATE DATABASE.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate } from '../migrate';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export function defaultDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://shellgrade:shellgrade@127.0.0.1:55432/shellgrade';
}

async function withAdmin<T>(adminUrl: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(adminUrl = defaultDatabaseUrl(), runMigrations = true): Promise<TestDatabase> {
  const name = `sg_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db: TestDatabase = {
    url: url.toString(),
    name,
    drop: () => dropDatabase(adminUrl, name),
  };
  if (runMigrations) {
    try {
      await migrate(db.url);
    } catch (err) {
      await db.drop();
      throw err;
    }
  }
  return db;
}

/**
 * DROP ... WITH (FORCE) cannot terminate a backend of another role: an autovacuum worker that
 * just started on the freshly seeded database (42501). It ends within moments; retry a while.
 */
async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '42501' || attempt >= 20) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
