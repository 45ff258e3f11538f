import { existsSync } from 'node:fs';
import { run } from './shell';

/** Absolute path of k6: $SG_K6, else `infra/bin/servers tool-path k6` (builds it when missing). */
export async function k6Path(): Promise<string> {
  if (process.env.SG_K6 && existsSync(process.env.SG_K6)) return process.env.SG_K6;
  const r = await run('bash', ['infra/bin/servers', 'tool-path', 'k6']);
  const path = r.stdout.trim().split('\n').pop() ?? '';
  if (!existsSync(path)) throw new Error(`servers tool-path k6 gave "${path}", which does not exist`);
  return path;
}

export async function k6Version(k6: string): Promise<string> {
  const r = await run(k6, ['version'], { allowFail: true });
  return r.stdout.trim();
}
