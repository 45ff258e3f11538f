/** Restarts a shared server with the project's own script (bounded: the script waits for health). */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SERVERS = join(__dirname, '../../../../infra/bin/servers');

export async function restartServer(name: 'rabbitmq' | 'redis', timeoutMs = 120_000): Promise<number> {
  const started = Date.now();
  await run('bash', [SERVERS, 'restart', name], { timeout: timeoutMs });
  return Date.now() - started;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
