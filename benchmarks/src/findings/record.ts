// What a findings run did (findings-runs.json beside the report): seed, capacity, the
// paper-equivalent search, the order of every run, run ids per cell and the stopping states —
// written after every run, so an interrupted run can still be evaluated (--evaluate).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from '../paths';
import { PAPER_EFR, PAPER_TOLERANCE, type Capacity, type LoadLevel, type PaperProbe, type PaperSearch } from './loads';
import type { FindingsPlan, PaperStart } from './plan';
import type { Testbed } from '../placement/testbed';
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
  /** The testbed the runs were asked on (absent: unscaled); a search guides only searches on the same one. */
  testbed?: Testbed;
  /** claims.ts CLAIMS_VERSION the run was planned with (absent: version 1). */
  claimsVersion?: number;
  /** Later sessions that added rounds to this run (--continue), in order. */
  continuations?: Continuation[];
  /** Runs taken out of their cell by a continuation (--rerun), kept here with the reason. */
  superseded?: { cell: string; runs: string[]; reason: string }[];
  /** naked-mon's calibration this run made before its search, the machine having none (absent: the capacity came from an earlier calibration or --saturation). */
  calibratedFirst?: CalibratedFirst;
  startedAt: string;
  endedAt: string | null;
}

export interface CalibratedFirst {
  /** The calibration file (also capacity.source). */
  source: string;
  startedAt: string;
  seconds: number;
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
  /** When the session last wrote the record (after each run): where an interrupted session ended. */
  lastSavedAt?: string;
  /** The session's process was stopped before it closed the session: closed by the next one at its last save (the run it was in is not in the record). */
  interrupted?: boolean;
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
 * Where a new search starts: from the newest run on this machine at the same sustainable rate,
 * client timeout and testbed (EFR depends on all three) whose search says something about the target — the
 * multiple it found within the search's tolerance of the paper's EFR, or, when it ran out of
 * probes first, the linear interpolation between its VALID probes either side — else null.
 */
export function previousPaperStart(at: { rate: number; timeoutS: number; testbed?: Testbed }, root = join(resultsDir(), 'findings')): PaperStart | null {
  if (!existsSync(root)) return null;
  const guides = readdirSync(root)
    .filter((d) => existsSync(join(root, d, RECORD_FILE)))
    .map((d) => ({ dir: d, record: readRecord(join(root, d)) }))
    .filter(({ record: r }) => r.capacity?.rate === at.rate && (r.clientTimeoutS ?? 60) === at.timeoutS && (r.testbed ?? 'unscaled') === (at.testbed ?? 'unscaled'))
    .sort((a, b) => a.record.startedAt.localeCompare(b.record.startedAt))
    .map(({ dir, record }) => ({ dir, start: startFrom(record.paper) }))
    .filter((g): g is { dir: string; start: { multiple: number; why: string } } => g.start !== null);
  const newest = guides.at(-1);
  return newest ? { multiple: newest.start.multiple, source: `${newest.start.why} by results/findings/${newest.dir}` } : null;
}

/** What one search says about where the target lies (multiples to the nearest 0.5). */
function startFrom(search: PaperSearch | undefined): { multiple: number; why: string } | null {
  if (!search) return null;
  const pct = (efr: number): string => `${(100 * efr).toFixed(1)} %`;
  if (search.multiple != null && Math.abs(search.efr! - PAPER_EFR) <= PAPER_TOLERANCE) return { multiple: search.multiple, why: `found at EFR ${pct(search.efr!)}` };
  const valid = search.probes.filter((p): p is PaperProbe & { efr: number } => p.valid !== false && p.efr !== null);
  const below = valid.filter((p) => p.efr < PAPER_EFR).sort((a, b) => b.multiple - a.multiple)[0];
  const above = valid.filter((p) => p.efr > PAPER_EFR).sort((a, b) => a.multiple - b.multiple)[0];
  if (!below || !above || below.multiple >= above.multiple) return null;
  const m = below.multiple + ((PAPER_EFR - below.efr) / (above.efr - below.efr)) * (above.multiple - below.multiple);
  return { multiple: Math.round(m * 2) / 2, why: `interpolated between ${below.multiple}× (EFR ${pct(below.efr)}) and ${above.multiple}× (${pct(above.efr)})` };
}

/** The command line that makes a record like this one: its mode and testbed (what a reader reruns). */
export function commandOf(record: Pick<FindingsRecord, 'mode' | 'testbed'>): string {
  const args = [...(record.mode === 'full' ? [] : [`--${record.mode}`]), ...(record.testbed === 'scaled' ? ['--testbed', 'scaled'] : [])];
  return ['npm run findings', ...(args.length ? ['--', ...args] : [])].join(' ');
}
