/**
 * Brings a variant up through the project's own launcher and seeds it, for e2e tests.
 * Everything goes through the same CLIs a user runs (npm run variant / db).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, setGlobalDispatcher } from 'undici';
import { readUsersCsv, type SeededUser } from './scenario-r';

export const REPO = join(__dirname, '..', '..');

function npmRun(args: string[], timeoutMs = 240_000): string {
  return execFileSync('npm', ['run', '--silent', ...args], { cwd: REPO, encoding: 'utf8', timeout: timeoutMs, stdio: ['ignore', 'pipe', 'inherit'] });
}

export interface VariantStatus {
  variant: string;
  entry: string;
  processes: { name: string; role: string; pid: number; port: number; status: string; restarts: number }[];
}

export function variantUp(name: string, flags: string[] = []): VariantStatus {
  // `up --json` prints the status it ends with: no second CLI run (pm2 listed again) per call.
  const out = npmRun(['variant', '--', 'up', name, ...flags, '--json']);
  freshConnections();
  return JSON.parse(out.slice(out.indexOf('{'))) as VariantStatus;
}

/**
 * Forgets the pooled keep-alive connections of fetch. The launcher runs synchronously, so this
 * process never saw the previous variant's processes close their sockets: the first request to a
 * restarted port would go out on a dead one ("other side closed").
 */
export function freshConnections(): void {
  setGlobalDispatcher(new Agent());
}

export function variantStatus(): VariantStatus {
  return JSON.parse(npmRun(['variant', '--', 'status', '--json'], 60_000)) as VariantStatus;
}

export function seed(students: number): SeededUser[] {
  const dir = join(REPO, 'run', 'seed');
  mkdirSync(dir, { recursive: true });
  const csv = join(dir, `e2e-users-${students}.csv`);
  npmRun(['db', '--', 'seed', '--students', String(students), '--csv', csv]);
  return readUsersCsv(readFileSync(csv, 'utf8'));
}

export function resetProductions(): void {
  npmRun(['db', '--', 'reset']);
}
