/**
 * Runs a TypeScript worker script in its own `node` process (the fault tests kill it with
 * SIGKILL). The script prints READY once it consumes; its output is kept for diagnostics.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const REGISTER = join(__dirname, 'register-ts.js');

export interface WorkerProcess {
  child: ChildProcess;
  ready: Promise<void>;
  output: () => string;
  /** SIGKILL and wait for the exit. */
  kill9: () => Promise<void>;
  stop: () => Promise<void>;
}

export function spawnWorker(script: string, env: Record<string, string>, readyTimeoutMs = 30_000): WorkerProcess {
  const child = spawn(process.execPath, ['-r', REGISTER, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker not ready after ${readyTimeoutMs} ms:\n${out}`)), readyTimeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('READY')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code ?? signal}) before READY:\n${out}`));
    });
  });
  ready.catch(() => undefined);
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return { child, ready, output: () => out, kill9: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}
