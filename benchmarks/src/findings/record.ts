// What a findings run did (findings-runs.json beside the report): seed, capacity, the
// paper-equivalent search, the order of every run, run ids per cell and the stopping states —
// written after every run, so an interrupted run can still be evaluated (--from).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from '../paths';
import type { Capacity, LoadLevel, PaperSearch } from './loads';
import type { FindingsPlan } from './plan';
import type { WatchedComparison } from './watched';

/** What a findings run did, in the order it did it. */
export interface FindingsRecord {
  mode: FindingsPlan['mode'];
  seed: number;
  capacity: Capacity;
  paper: PaperSearch;
  /** Peak (it/s) per level as run. */
  peaks: Partial<Record<LoadLevel, number>>;
  /** Cell keys in the order they ran, per round. */
  rounds: string[][];
  /** Run ids per cell key, in run order. */
  runs: Record<string, string[]>;
  /** Runs that failed to complete, with the error. */
  failed: { cell: string; round: number; error: string }[];
  comparisons: WatchedComparison[];
  /** Why rounds stopped before every comparison was precise or at its maximum (the time budget); absent otherwise. */
  stoppedEarly?: string;
  startedAt: string;
  endedAt: string | null;
}

export const RECORD_FILE = 'findings-runs.json';

/** The newest findings-runs.json under results/findings/. */
export function latestRecordDir(): string | null {
  const root = join(resultsDir(), 'findings');
  if (!existsSync(root)) return null;
  const dirs = readdirSync(root).filter((d) => existsSync(join(root, d, RECORD_FILE))).sort();
  return dirs.length ? join(root, dirs[dirs.length - 1]) : null;
}

export function readRecord(dir: string): FindingsRecord {
  return JSON.parse(readFileSync(join(dir, RECORD_FILE), 'utf8')) as FindingsRecord;
}

