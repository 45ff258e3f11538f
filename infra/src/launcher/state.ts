/** run/variant.json: which variant the launcher brought up last, so `up` can switch and `down` knows what to stop. */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ProcessRole } from '@shellgrade/variant';
import { STATE_FILE } from '../paths';

export interface ActiveVariant {
  variant: string;
  /** The spec file it was loaded from. */
  source: string;
  /** Hash of the validated spec: `up` of an edited spec is not a no-op. */
  specHash: string;
  entry: string;
  processes: { name: string; role: ProcessRole; port: number; healthUrl: string }[];
  servers: string[];
  startedAt: string;
}

export function readState(): ActiveVariant | undefined {
  if (!existsSync(STATE_FILE)) return undefined;
  try {
    return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as ActiveVariant;
  } catch {
    return undefined;
  }
}

export function writeState(state: ActiveVariant): void {
  mkdirSync(dirname(STATE_FILE), { recursive: true });
  const tmp = `${STATE_FILE}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, STATE_FILE);
}

export function clearState(): void {
  rmSync(STATE_FILE, { force: true });
}
