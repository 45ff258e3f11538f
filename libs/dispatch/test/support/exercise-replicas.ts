/**
 * Real exercise-service replicas (the built dist, as pm2 runs them) wired to a broker, on
 * loopback ports away from the launcher's, against a fresh seeded database: the end-to-end
 * check of the Nest wiring, the real sandboxed grader and the HTTP answers (201/202).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
// Tests take the servers' addresses and the spec's defaults from the spec library, as the services do.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { LOOPBACK, serviceEnv, validateVariant, type VariantSpecInput } from '@shellgrade/variant';
/* eslint-disable @nx/enforce-module-boundaries -- the browser-like e2e client (libs/http's test support) is shared by every e2e test */
import { readUsersCsv, type SeededUser } from '../../../http/test/support/scenario-r';

const run = promisify(execFile);
const REPO = join(__dirname, '../../../..');
const MAIN = join(REPO, 'dist/services/exercise/src/main.js');
const DB_CLI = join(REPO, 'dist/libs/admin-cli/src/db.js');

export interface ReplicaSet {
  urls: string[];
  output: () => string;
  stop: () => Promise<void>;
}

export function assertBuilt(): void {
  if (!existsSync(MAIN) || !existsSync(DB_CLI)) throw new Error(`${MAIN} missing: run \`npm run build\` first`);
}

/** Seeds `students` students (and the catalog) into `databaseUrl` with the project's db CLI. */
export async function seedStudents(databaseUrl: string, students: number): Promise<SeededUser[]> {
  const csv = join(mkdtempSync(join(tmpdir(), 'sg-broker-e2e-')), 'users.csv');
  await run(process.execPath, [DB_CLI, 'seed', '--students', String(students), '--csv', csv, '--kdf-cost', '4'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    timeout: 120_000,
  });
  return readUsersCsv(readFileSync(csv, 'utf8'));
}

/** The msa spec the replicas run: one exercise replica per port, `wiring` on top (dispatch, reply, broker). */
export type ReplicaWiring = Pick<VariantSpecInput, 'dispatch' | 'reply' | 'broker'>;

export async function startExerciseReplicas(ports: number[], wiring: ReplicaWiring, env: Record<string, string>): Promise<ReplicaSet> {
  assertBuilt();
  const spec = validateVariant({
    name: 'broker-e2e',
    description: 'exercise replicas of the broker end-to-end tests',
    topology: 'msa',
    replicas: { gateway: 1, leftover: 1, exercise: ports.length },
    ...wiring,
  });
  const upstreams = { leftoverUrl: `http://${LOOPBACK}:3200`, exerciseUrl: `http://${LOOPBACK}:${ports[0]}` };
  let out = '';
  const children: ChildProcess[] = ports.map((port, replica) => {
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, ...serviceEnv(spec, 'exercise', replica, { host: LOOPBACK, port, upstreams }), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    return child;
  });
  const urls = ports.map((p) => `http://127.0.0.1:${p}`);
  const stop = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            const force = setTimeout(() => c.kill('SIGKILL'), 15_000);
            c.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
            c.kill('SIGTERM');
          }),
      ),
    );
  };
  const deadline = Date.now() + 60_000;
  for (const url of urls) {
    for (;;) {
      const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline || children.some((c) => c.exitCode !== null)) {
        await stop();
        throw new Error(`exercise replica ${url} not healthy:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { urls, output: () => out, stop };
}
