/**
 * Object-store commands live in libs/storage, which depends on this library; the db CLI runs
 * that library's compiled CLI in a child process instead of importing it (no dependency cycle).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** dist/libs/storage/src/cli.js next to this file's compiled copy. */
export function storageCliPath(): string {
  return join(__dirname, '..', '..', 'storage', 'src', 'cli.js');
}

/** Throws unless the compiled storage CLI is there (checked before any destructive step). */
export function assertStorageCli(): string {
  const cli = storageCliPath();
  if (!existsSync(cli)) throw new Error(`${cli} not found: run \`npm run build\` first`);
  return cli;
}

/** Runs `storage <argv>` with the same environment; resolves with its stdout lines. */
export async function runStorageCli(argv: string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const cli = assertStorageCli();
  try {
    const { stdout } = await execFileAsync(process.execPath, [cli, ...argv], { env, timeout: 10 * 60_000, maxBuffer: 16 * 1024 * 1024 });
    return stdout.split('\n').filter(Boolean);
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`storage ${argv[0]} failed: ${stderr || String(err)}`);
  }
}
