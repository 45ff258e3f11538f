/**
 * Schema migrations with node-pg-migrate (SQL files in libs/persistence/migrations).
 *
 * node-pg-migrate 9 is ESM-only; the runner is started in a child Node process so this
 * CommonJS library (and Jest, which cannot require ESM on Node 20) never loads it in-process.
 * The runner waits for node-pg-migrate's advisory lock, so replicas may migrate concurrently.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** libs/persistence/migrations, found from src/ (ts-node, Jest) or dist/libs/persistence/src. */
export function migrationsDir(): string {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'libs', 'persistence', 'migrations');
    if (existsSync(candidate)) return candidate;
    const sibling = join(dir, '..', 'migrations');
    if (dir.endsWith(join('libs', 'persistence', 'src')) && existsSync(sibling)) return resolve(sibling);
    dir = dirname(dir);
  }
  throw new Error(`libs/persistence/migrations not found above ${__dirname}`);
}

const RUNNER_SCRIPT = `
const [moduleUrl, optionsJson] = process.argv.slice(1);
const { runner } = await import(moduleUrl);
const ran = await runner({ ...JSON.parse(optionsJson), log: () => {} });
process.stdout.write(JSON.stringify(ran.map((m) => m.name)));
`;

/** Applies every pending migration; resolves with the names of the ones it ran. */
export async function migrate(databaseUrl: string, direction: 'up' | 'down' = 'up'): Promise<string[]> {
  const options = {
    databaseUrl,
    dir: migrationsDir(),
    direction,
    // up: every pending one (runner default); down: the last one.
    ...(direction === 'down' ? { count: 1 } : {}),
    migrationsTable: 'pgmigrations',
    checkOrder: true,
    singleTransaction: true,
    // Replicas starting together wait for the first one's run instead of failing.
    advisoryLockMode: 'wait',
  };
  const moduleUrl = pathToFileURL(require.resolve('node-pg-migrate')).href;
  try {
    const { stdout } = await execFileAsync(
      process.execPath,
      ['--input-type=module', '-e', RUNNER_SCRIPT, moduleUrl, JSON.stringify(options)],
      { timeout: 120_000, maxBuffer: 1024 * 1024 },
    );
    return JSON.parse(stdout || '[]') as string[];
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? '';
    throw new Error(`migration ${direction} failed: ${stderr.trim() || String(err)}`);
  }
}
