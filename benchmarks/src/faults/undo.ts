// What undoes an injected fault, as data: a journal line that a later process can still perform
// (journal.ts) and that a signal or exit handler can perform synchronously (guard.ts).
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { repoRoot } from '../paths';

export type UndoAction =
  /** SIGCONT to a stopped process (SIGSTOP fault). */
  | { kind: 'continue'; pid: number }
  /** `infra/bin/servers up <names>`: a no-op for a server already up and healthy. */
  | { kind: 'servers-up'; names: string[] }
  /** `npm run variant -- up <target>`: brings back a replica still down after a kill (a no-op when all are online). */
  | { kind: 'variant-up'; target: string }
  /** SIGKILL of a helper the fault started (a fault proxy). */
  | { kind: 'kill'; pid: number };

export function describeUndo(a: UndoAction): string {
  switch (a.kind) {
    case 'continue':
      return `SIGCONT pid ${a.pid}`;
    case 'servers-up':
      return `servers up ${a.names.join(' ')}`;
    case 'variant-up':
      return `variant up ${a.target}`;
    case 'kill':
      return `SIGKILL pid ${a.pid}`;
  }
}

/** A process that is already gone needs no signal: ESRCH is success. */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

function runSync(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { cwd: repoRoot(), stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status ?? r.signal}`);
}

/** Performs one undo synchronously (usable from 'exit' and signal handlers). Throws when it failed. */
export function performUndo(a: UndoAction): void {
  switch (a.kind) {
    case 'continue':
      return signal(a.pid, 'SIGCONT');
    case 'kill':
      return signal(a.pid, 'SIGKILL');
    case 'servers-up':
      return runSync('bash', [join(repoRoot(), 'infra', 'bin', 'servers'), 'up', ...a.names]);
    case 'variant-up':
      return runSync('npm', ['run', '--silent', 'variant', '--', 'up', a.target]);
  }
}

/** The same undo without blocking the event loop (the harness's sampler keeps sampling meanwhile). */
export async function performUndoAsync(a: UndoAction): Promise<void> {
  if (a.kind === 'continue' || a.kind === 'kill') return performUndo(a);
  const [cmd, args] = a.kind === 'servers-up' ? ['bash', [join(repoRoot(), 'infra', 'bin', 'servers'), 'up', ...a.names]] : ['npm', ['run', '--silent', 'variant', '--', 'up', a.target]];
  await promisify(execFile)(cmd, args, { cwd: repoRoot() });
}
