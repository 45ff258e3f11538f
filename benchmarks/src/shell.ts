import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from './paths';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command in the repository; output is captured, and also streamed when `echo` is set. */
export function run(
  cmd: string,
  args: string[],
  opts: { echo?: boolean; env?: NodeJS.ProcessEnv; allowFail?: boolean } = {},
): Promise<CommandResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: repoRoot(), env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (opts.echo) process.stderr.write(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (opts.echo) process.stderr.write(d);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const result = { code: code ?? 1, stdout, stderr };
      if (result.code !== 0 && !opts.allowFail) {
        reject(new Error(`${cmd} ${args.join(' ')} exited ${result.code}\n${stderr.slice(-2000)}`));
      } else resolvePromise(result);
    });
  });
}

/** Starts a long-running command whose output goes straight to our stderr (k6 progress), keeping stdout for tables. */
export function startInherited(cmd: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(cmd, args, { cwd: repoRoot(), env: { ...process.env, ...env }, stdio: ['ignore', 2, 2] });
}

export function waitExit(child: ChildProcess): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolvePromise(code ?? (signal ? 128 : 1)));
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
