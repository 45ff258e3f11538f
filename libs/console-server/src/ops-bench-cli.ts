/**
 * The console runs the research harness exactly as a shell user does: `npm run bench -- <args>`
 * is `node dist/benchmarks/src/cli.js <args>` from the repository root (package.json). The
 * runtime never imports the harness (a tool, outside its layers); it starts it as a child.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface BenchCli {
  /** The Node binary (this process's own). */
  node: string;
  /** dist/benchmarks/src/cli.js */
  script: string;
  /** The repository root the CLI runs from. */
  cwd: string;
  /** The results folder the CLI reads and writes (SG_RESULTS_DIR). */
  resultsDir: string;
}

const execFileAsync = promisify(execFile);

/** What a shell user types for the same thing. */
export const shellCommand = (args: readonly string[]): string => ['npm', 'run', 'bench', '--', ...args].map(shellWord).join(' ');

const shellWord = (w: string): string => (/^[A-Za-z0-9_./:=,@+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** The environment of a child harness: this process's, with the results folder the console reads. */
export const benchEnv = (cli: BenchCli): NodeJS.ProcessEnv => ({ ...process.env, SG_RESULTS_DIR: cli.resultsDir });

/** Runs a short harness command to its end (compare); rejects with its stderr when it fails. */
export async function runBenchCli(cli: BenchCli, args: readonly string[], timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await execFileAsync(cli.node, [cli.script, ...args], { cwd: cli.cwd, env: benchEnv(cli), timeout: timeoutMs, maxBuffer: 16 * 2 ** 20 });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error((e.stderr ?? '').trim().split('\n').pop() || e.message);
  }
}
