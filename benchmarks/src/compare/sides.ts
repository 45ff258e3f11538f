// One side of a comparison: a test (results/<run-id>, all its VALID runs) or some of its runs
// ("<run-id>:2" or "<run-id>:1,3"). INVALID runs are never compared; they are named with why.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadResult, type LoadedResult } from '../report/load-results';
import type { RunRecord } from '../types';

export interface Side {
  /** As typed on the command line. */
  ref: string;
  result: LoadedResult;
  /** The VALID runs compared, in run order. */
  runs: RunRecord[];
  /** Runs asked for but left out, with the reason. */
  excluded: { run: number; reasons: string[] }[];
}

export interface SideRef {
  runId: string;
  /** Undefined: every run of the test. */
  runs?: number[];
  /** Results root when the reference was a folder path. */
  root?: string;
}

/** "<run-id>", "<run-id>:1,3" or a folder path "results/<run-id>[:runs]". */
export function parseSideRef(ref: string): SideRef {
  const m = /^(.*?)(?::(\d+(?:,\d+)*))?$/.exec(ref)!;
  const target = m[1].replace(/\/+$/, '');
  const runs = m[2]?.split(',').map(Number);
  if (!target.includes('/')) return { runId: target, runs };
  return { runId: basename(target), runs, root: dirname(resolve(target)) };
}

/** Every run-N.json of a loaded test, in run order (the runner writes one per run). */
export function loadRunRecords(result: LoadedResult): RunRecord[] {
  const out: RunRecord[] = [];
  for (let r = 1; r <= result.aggregated.runs; r++) {
    const file = join(result.dir, `run-${r}.json`);
    if (existsSync(file)) out.push(JSON.parse(readFileSync(file, 'utf8')) as RunRecord);
  }
  return out;
}

/** The valid runs a side compares, and the ones it leaves out (invalid, or not asked for). */
export function selectRuns(all: RunRecord[], wanted?: number[]): Pick<Side, 'runs' | 'excluded'> {
  const asked = wanted ? all.filter((r) => wanted.includes(r.run)) : all;
  const missing = (wanted ?? []).filter((n) => !all.some((r) => r.run === n)).map((run) => ({ run, reasons: ['no such run in the test'] }));
  return {
    runs: asked.filter((r) => r.valid),
    excluded: [...asked.filter((r) => !r.valid).map((r) => ({ run: r.run, reasons: r.reasons })), ...missing],
  };
}

export function loadSide(ref: string): Side {
  const parsed = parseSideRef(ref);
  const result = parsed.root ? loadResult(parsed.runId, parsed.root) : loadResult(parsed.runId);
  return { ref, result, ...selectRuns(loadRunRecords(result), parsed.runs) };
}
