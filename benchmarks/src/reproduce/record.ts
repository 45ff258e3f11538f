// What a reproduction did (reproduce-runs.json beside its scorecard): plan, capacity, the
// paper-equivalent search, the order of every run and the run ids per configuration — written
// after every run, so an interrupted reproduction can still be scored (--evaluate).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newRecordDir, resultsDir } from '../paths';
import type { Capacity, PaperSearch } from '../findings/loads';
import type { Testbed } from '../placement/testbed';
import type { ReproduceMode } from './plan';

export const REPRODUCE_FILE = 'reproduce-runs.json';

/** The scorecard beside its record: its data, and the page rendered from it. */
export const SCORECARD_FILES = { json: 'scorecard.json', md: 'scorecard.md', html: 'scorecard.html' } as const;

export interface ReproduceRecord {
  paper: '000';
  /** smoke: the runner end to end, deciding nothing (absent: full, the only mode before it was kept). */
  mode?: ReproduceMode;
  seed: number;
  testbed: Testbed;
  capacity: Capacity;
  search: PaperSearch;
  /** The arrival rate every configuration ran at, it/s (null: no paper-equivalent load was found). */
  peak: number | null;
  /** Runs a configuration the plan asked for, and the time budget, minutes. */
  runsAsked: number;
  budgetMin: number;
  /** Preset per paper label, in the paper's order. */
  configurations: { label: string; variant: string }[];
  /** Preset names in the order they ran, per round. */
  rounds: string[][];
  /** Run ids per preset, in run order. */
  runs: Record<string, string[]>;
  failed: { variant: string; round: number; error: string }[];
  stoppedEarly?: string;
  /** The code that ran (git HEAD), and whether the tree had uncommitted changes. */
  commit: string | null;
  /** The boot that made the runs (a continuation runs on it too; absent in older records). */
  bootId?: string | null;
  /** Sessions that added runs (--continue), with the code each ran. */
  continuations?: { startedAt: string; endedAt: string | null; commit: string | null }[];
  startedAt: string;
  endedAt: string | null;
}

/** A new reproduction's folder: results/reproduce/<day>, or <day>T<hhmm>Z when the day's holds one already. */
export function reproduceDir(at = new Date()): string {
  return newRecordDir(join(resultsDir(), 'reproduce'), REPRODUCE_FILE, at);
}

export function writeReproduceRecord(dir: string, r: ReproduceRecord): void {
  writeFileSync(join(dir, REPRODUCE_FILE), JSON.stringify(r, null, 2));
}

export function readReproduceRecord(dir: string): ReproduceRecord {
  return JSON.parse(readFileSync(join(dir, REPRODUCE_FILE), 'utf8')) as ReproduceRecord;
}

/** The newest results/reproduce/<date>/ holding a record. */
export function latestReproduceDir(): string | null {
  const root = join(resultsDir(), 'reproduce');
  if (!existsSync(root)) return null;
  const dirs = readdirSync(root).filter((d) => existsSync(join(root, d, REPRODUCE_FILE))).sort();
  return dirs.length ? join(root, dirs[dirs.length - 1]) : null;
}
