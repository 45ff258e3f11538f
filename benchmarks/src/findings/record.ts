// What a findings run did (findings-runs.json beside the report): seed, capacity, the
// paper-equivalent search, the order of every run, run ids per cell and the stopping states —
// written after every run, so an interrupted run can still be evaluated (--from).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from '../paths';
import { PAPER_EFR, PAPER_TOLERANCE, type Capacity, type LoadLevel, type PaperSearch } from './loads';
import type { FindingsPlan, PaperStart } from './plan';
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
  /** The time budget the rounds obeyed, minutes (absent in records written before it was kept). */
  budgetMin?: number;
  /** The client's request timeout, s (absent: 60, the only one before it was kept). */
  clientTimeoutS?: number;
  /** Where the paper-equivalent search started (absent: at FIRST_PROBE). */
  paperStart?: PaperStart;
  /** claims.ts CLAIMS_VERSION the run was planned with (absent: version 1). */
  claimsVersion?: number;
  /** Later sessions that added rounds to this run (--continue), in order. */
  continuations?: Continuation[];
  /** Runs taken out of their cell by a continuation (--rerun), kept here with the reason. */
  superseded?: { cell: string; runs: string[]; reason: string }[];
  startedAt: string;
  endedAt: string | null;
}

/** One --continue session: what it was allowed to do and why it stopped. */
export interface Continuation {
  startedAt: string;
  endedAt: string | null;
  seed: number;
  claimsVersion: number;
  budgetMin: number;
  /** Claims whose comparisons kept cells running ("all" when not restricted). */
  claims: string[] | 'all';
  /** Cells whose earlier runs were superseded and run again from scratch. */
  rerun: string[];
  /** Single runs set aside (their cells run again as the rules ask). */
  setAside?: string[];
  /** The stated maximum of runs a cell this session raised the protocol's to (--max-runs), if any. */
  maxRuns?: number;
  /** Index into rounds of this session's first round. */
  firstRound: number;
  /** The code the session ran. */
  commit: string;
  stoppedEarly?: string;
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


/**
 * Where a new search starts: the paper-equivalent multiple the newest run found on this machine
 * at the same sustainable rate and client timeout (EFR depends on both), within the search's
 * tolerance of the paper's EFR (a search that ran out of probes far from it is no guide), else null.
 */
export function previousPaperStart(at: { rate: number; timeoutS: number }, root = join(resultsDir(), 'findings')): PaperStart | null {
  if (!existsSync(root)) return null;
  const found = readdirSync(root)
    .filter((d) => existsSync(join(root, d, RECORD_FILE)))
    .map((d) => ({ dir: d, record: readRecord(join(root, d)) }))
    .filter(({ record: r }) => r.paper?.multiple != null && Math.abs(r.paper.efr! - PAPER_EFR) <= PAPER_TOLERANCE && r.capacity?.rate === at.rate && (r.clientTimeoutS ?? 60) === at.timeoutS)
    .sort((a, b) => a.record.startedAt.localeCompare(b.record.startedAt));
  const newest = found.at(-1);
  if (!newest) return null;
  const p = newest.record.paper;
  return { multiple: p.multiple!, source: `found by results/findings/${newest.dir}: EFR ${(100 * p.efr!).toFixed(1)} %` };
}
