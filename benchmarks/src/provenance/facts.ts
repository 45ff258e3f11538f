// The environment a test ran in, besides the machine facts (machine.ts): the project's commit
// and whether the tree had changes, Python and the servers' versions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../paths';
import { run } from '../shell';

export interface EnvironmentFacts {
  project: { commit: string | null; dirty: boolean | null; changedFiles: number | null };
  versions: {
    python: string | null;
    /** Debian packages of the native servers (dpkg), null when not installed. */
    servers: Record<string, string | null>;
    /** Go-built tools as pinned in infra/servers/tools.sh (module@version). */
    pinnedTools: Record<string, string>;
  };
}

export const SERVER_PACKAGES = ['postgresql', 'redis-server', 'rabbitmq-server', 'haproxy', 'bubblewrap'];

async function output(cmd: string, args: string[]): Promise<string | null> {
  const r = await run(cmd, args, { allowFail: true }).catch(() => null);
  return r && r.code === 0 ? r.stdout.trim() : null;
}

/** "pkg version" lines of dpkg-query -W; a package it does not know is simply absent. */
export function parseDpkg(text: string, packages: string[]): Record<string, string | null> {
  const found = new Map(text.split('\n').map((l) => l.trim().split(/\s+/) as [string, string?]).filter(([p, v]) => p && v).map(([p, v]) => [p, v!]));
  return Object.fromEntries(packages.map((p) => [p, found.get(p) ?? null]));
}

/** K6_MODULE=go.k6.io/k6@v1.8.1 lines of tools.sh -> { k6: 'go.k6.io/k6@v1.8.1' }. */
export function parsePins(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/^([A-Z0-9]+)_MODULE=(\S+)$/gm)].map((m) => [m[1].toLowerCase(), m[2]]));
}

/** The commit checked out where the harness runs, null outside a git tree. */
export function projectCommit(): Promise<string | null> {
  return output('git', ['rev-parse', 'HEAD']);
}

export async function environmentFacts(): Promise<EnvironmentFacts> {
  const commit = await projectCommit();
  const status = await output('git', ['status', '--porcelain']);
  const dpkg = (await run('dpkg-query', ['-W', '-f', '${Package} ${Version}\n', ...SERVER_PACKAGES], { allowFail: true }).catch(() => null))?.stdout ?? '';
  const python = await output('python3', ['--version']);
  let pins: Record<string, string> = {};
  try {
    pins = parsePins(readFileSync(join(repoRoot(), 'infra', 'servers', 'tools.sh'), 'utf8'));
  } catch {
    pins = {};
  }
  return {
    project: { commit, dirty: status === null ? null : status.length > 0, changedFiles: status === null ? null : status.split('\n').filter(Boolean).length },
    versions: { python: python?.replace(/^Python /, '') ?? null, servers: parseDpkg(dpkg, SERVER_PACKAGES), pinnedTools: pins },
  };
}
