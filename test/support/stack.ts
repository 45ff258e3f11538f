/**
 * Brings a variant up through the project's own launcher and seeds it through its database tool,
 * for e2e tests: the same code as `npm run variant` / `npm run db`, called in this process (a CLI
 * run per call cost about a second: npm, Node and pm2 started again, some sixty times a suite).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, setGlobalDispatcher } from 'undici';
import { runDbCommand } from '@shellgrade/admin-cli';
import { launchVariant, variantStatus as launcherStatus, type UpOptions, type VariantStatus as LauncherStatus } from '@shellgrade/launcher';
import { readUsersCsv, type SeededUser } from './scenario-r';

/** The launcher's status of a variant that is up: its name and entry are known. */
export type VariantStatus = LauncherStatus & { variant: string; entry: string };

function upStatus(status: LauncherStatus): VariantStatus {
  if (status.variant === null || status.entry === null) throw new Error('no variant is up (the launcher records none)');
  return status as VariantStatus;
}

export const REPO = join(__dirname, '..', '..');

export async function variantUp(name: string, options: UpOptions = {}): Promise<VariantStatus> {
  const status = await launchVariant(name, options);
  freshConnections();
  return upStatus(status);
}

/**
 * Forgets the pooled keep-alive connections of fetch. A pooled socket to a process the launcher
 * has since restarted is dead, whether or not this process saw it close: the first request to a
 * restarted port would go out on it ("other side closed").
 */
export function freshConnections(): void {
  setGlobalDispatcher(new Agent());
}

export async function variantStatus(): Promise<VariantStatus> {
  return upStatus(await launcherStatus());
}

export async function seed(students: number): Promise<SeededUser[]> {
  const dir = join(REPO, 'run', 'seed');
  mkdirSync(dir, { recursive: true });
  const csv = join(dir, `e2e-users-${students}.csv`);
  await runDbCommand(['seed', '--students', String(students), '--csv', csv], process.env, () => undefined);
  return readUsersCsv(readFileSync(csv, 'utf8'));
}

export function resetProductions(): Promise<void> {
  return runDbCommand(['reset'], process.env, () => undefined);
}
