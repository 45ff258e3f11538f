/**
 * The servers CLI against the real machine: `servers up postgres redis` brings up PostgreSQL
 * and Redis under pm2; clients connect with the runtime config's defaults; a second `up` is
 * a no-op. Never stops or wipes servers (other suites use them concurrently).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';
import { loadConnections } from '@shellgrade/variant';

const run = promisify(execFile);
// CLI calls spawn pm2/node/psql: seconds each on a loaded 2-core machine.
jest.setTimeout(120_000);
const SERVERS_CLI = path.resolve(__dirname, '../bin/servers');
const defaults = loadConnections({});

/** Runs the CLI from a foreign cwd (it must resolve the repo from its own path). */
async function servers(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run('bash', [SERVERS_CLI, ...args], { cwd: '/', timeout: 15 * 60_000, maxBuffer: 16 << 20 });
}

function statusRows(table: string): Map<string, { state: string; pid: number; healthy: string }> {
  const rows = new Map<string, { state: string; pid: number; healthy: string }>();
  for (const line of table.trim().split('\n').slice(1)) {
    const [name, state, pid, , healthy] = line.trim().split(/\s+/);
    rows.set(name, { state, pid: Number(pid), healthy });
  }
  return rows;
}

describe('servers CLI: postgres and redis', () => {
  beforeAll(async () => {
    await servers('up', 'postgres', 'redis');
  }, 15 * 60_000);

  it('serves PostgreSQL as role shellgrade on the default DATABASE_URL, with benchmark settings', async () => {
    const client = new Client({ connectionString: defaults.DATABASE_URL });
    await client.connect();
    try {
      const who = await client.query('select current_user as u, current_database() as d');
      expect(who.rows[0]).toEqual({ u: 'shellgrade', d: 'shellgrade' });
      const settings = await client.query(
        `select name, setting from pg_settings
          where name in ('max_connections', 'fsync', 'synchronous_commit', 'listen_addresses')`,
      );
      expect(Object.fromEntries(settings.rows.map((r) => [r.name, r.setting]))).toEqual({
        fsync: 'on',
        listen_addresses: '127.0.0.1',
        max_connections: '300',
        synchronous_commit: 'on',
      });
      // CREATEDB lets migration tests create throwaway databases.
      const role = await client.query('select rolcreatedb from pg_roles where rolname = current_user');
      expect(role.rows[0].rolcreatedb).toBe(true);
      await client.query('create temp table probe (v int)');
      await client.query('insert into probe values (41), (1)');
      const sum = await client.query('select sum(v)::int as s from probe');
      expect(sum.rows[0].s).toBe(42);
    } finally {
      await client.end();
    }
  });

  it('serves Redis on the default REDIS_URL with the append-only file on', async () => {
    const redis = new Redis(defaults.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
    await redis.connect();
    try {
      expect(await redis.ping()).toBe('PONG');
      expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await redis.config('GET', 'bind')).toEqual(['bind', '127.0.0.1']);
    } finally {
      redis.disconnect();
    }
  });

  it('reports both healthy in `status`', async () => {
    const rows = statusRows((await servers('status')).stdout);
    for (const name of ['postgres', 'redis']) {
      expect(rows.get(name)).toMatchObject({ state: 'online', healthy: 'yes' });
      expect(rows.get(name)!.pid).toBeGreaterThan(0);
    }
  });

  it('treats a second `up` as a no-op: "already up", nothing started', async () => {
    const started = Date.now();
    const { stderr } = await servers('up', 'postgres', 'redis');
    const elapsedMs = Date.now() - started;
    expect(stderr).toContain('postgres already up');
    expect(stderr).toContain('redis already up');
    expect(stderr).not.toContain('starting');
    // Pids are not compared: fault tests of other suites may restart redis meanwhile.
    console.log(`second up took ${elapsedMs} ms`);
  });

  it('prints client settings in `env` that match the runtime config defaults', async () => {
    const { stdout } = await servers('env');
    const env = Object.fromEntries(
      [...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]),
    );
    expect(env).toMatchObject({
      DATABASE_URL: defaults.DATABASE_URL,
      REDIS_URL: defaults.REDIS_URL,
      AMQP_URL: defaults.AMQP_URL,
      MINIO_ENDPOINT: defaults.MINIO_ENDPOINT,
      MINIO_ACCESS_KEY: defaults.MINIO_ACCESS_KEY,
      MINIO_SECRET_KEY: defaults.MINIO_SECRET_KEY,
      MINIO_BUCKET: defaults.MINIO_BUCKET,
      OTEL_EXPORTER_OTLP_ENDPOINT: defaults.OTEL_EXPORTER_OTLP_ENDPOINT,
    });
  });

  it('rejects an unknown server name with a clear error and a non-zero exit', async () => {
    await expect(servers('up', 'mongodb')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("unknown server 'mongodb'"),
    });
  });
});
