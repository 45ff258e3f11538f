/**
 * The native servers a variant needs, started through the project's own infra/bin/servers
 * (which owns their installation, configuration and health checks), and the migrations.
 */
import { spawnSync } from 'node:child_process';
import type { NativeServer, VariantSpec } from '@shellgrade/variant';
import { variantServers } from '@shellgrade/variant';
import { REPO_ROOT, SERVERS_SCRIPT } from '../paths';

/** Loopback ports of the servers (the brief's plan; infra/servers/*.sh listen there). */
export const SERVER_PORTS: Record<Exclude<NativeServer, 'haproxy'>, number> = {
  postgres: 55432,
  redis: 56379,
  rabbitmq: 55672,
  minio: 59000,
  jaeger: 16686,
};

export type ManagedServer = Exclude<NativeServer, 'haproxy'>;

export function managedServers(spec: VariantSpec): ManagedServer[] {
  return variantServers(spec).filter((s): s is ManagedServer => s !== 'haproxy');
}

/** Packages the processes themselves run: haproxy when balanced, bubblewrap when graders are isolated. */
export function requiredPackages(spec: VariantSpec): string[] {
  const packages: string[] = [];
  if (variantServers(spec).includes('haproxy')) packages.push('haproxy');
  if (spec.grader.isolation === 'bwrap') packages.push('bubblewrap');
  return packages;
}

/** Runs a command with its output on our stderr (stdout stays for machine-readable output). */
function run(what: string, command: string, args: string[], timeoutMs: number): void {
  const result = spawnSync(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 2, 2], timeout: timeoutMs });
  if (result.error) throw new Error(`${what} failed: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status ?? result.signal}); see its output above`);
}

export function ensureServers(spec: VariantSpec): void {
  const packages = requiredPackages(spec);
  if (packages.length > 0) run(`servers install ${packages.join(' ')}`, 'bash', [SERVERS_SCRIPT, 'install', ...packages], 10 * 60_000);
  const servers = managedServers(spec);
  // MinIO and Jaeger may be built from source on a fresh machine: minutes, once.
  run(`servers up ${servers.join(' ')}`, 'bash', [SERVERS_SCRIPT, 'up', ...servers], 20 * 60_000);
}

export function migrate(): void {
  run('npm run db -- migrate', 'npm', ['run', '--silent', 'db', '--', 'migrate'], 5 * 60_000);
}
