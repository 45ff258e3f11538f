// --continue: more rounds for a findings run already recorded, under a budget of its own — for
// the cells the current claims read that the run lacks (a newer claims version), the cells rerun
// because their earlier runs are known to be wrong (--rerun, with the reason: the runs stay in
// the record as superseded), and the comparisons still too wide. --claims limits which claims'
// comparisons keep cells running. The record keeps every session (continuations[]).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { phase } from '../log';
import type { Side } from '../compare/sides';
import type { PlacementRequest } from '../placement/plan';
import { projectCommit } from '../provenance/facts';
import { variantDown } from '../stack';
import { roundCells } from './budget';
import { CLAIMS, CLAIMS_VERSION } from './claims';
import type { FindingsPlan, PlannedCell } from './plan';
import { RECORD_FILE, type Continuation, type FindingsRecord } from './record';
import { derivedSpecs, oneRun, runRound, sidesOf } from './run';
import { cellKey, roundOrder, seededRng } from './schedule';
import { activeCells, settle, watchedComparisons } from './watched';
import { exclusive } from '../harness-lock';

export interface ContinueOptions {
  budgetMin: number;
  seed: number;
  /** Only these claims' comparisons keep cells running (default: every claim). */
  claims?: string[];
  /** Cells ("variant@level") whose earlier runs are set aside and run again. */
  rerun?: string[];
  /** Single runs (ids) set aside. */
  setAside?: string[];
  because?: string;
  /** Raises the protocol's maximum of runs a cell for this session (recorded): where a verdict names the runs that would settle it. */
  maxRuns?: number;
  placement?: PlacementRequest;
}

/** The plan with this session's stated maximum of runs a cell. */
export function withMaxRuns(plan: FindingsPlan, maxRuns?: number): FindingsPlan {
  if (maxRuns === undefined) return plan;
  if (maxRuns < plan.protocol.stopping.minRuns) throw new Error(`--max-runs ${maxRuns}: below the protocol's minimum of ${plan.protocol.stopping.minRuns} runs a cell`);
  return { ...plan, protocol: { ...plan.protocol, stopping: { ...plan.protocol.stopping, maxRuns } } };
}

/** Takes the cells' runs out of the record, keeping them (and why) under superseded. */
export function supersede(record: FindingsRecord, cells: readonly string[], reason: string): void {
  for (const cell of cells) {
    const runs = record.runs[cell];
    if (!runs?.length) throw new Error(`--rerun ${cell}: the record has no runs of that cell (cells: ${Object.keys(record.runs).join(', ')})`);
    (record.superseded ??= []).push({ cell, runs, reason });
    delete record.runs[cell];
  }
}

/** Takes single runs out of their cells (by run id), keeping them (and why) under superseded. */
export function setAside(record: FindingsRecord, runIds: readonly string[], reason: string): void {
  for (const id of runIds) {
    const cell = Object.keys(record.runs).find((k) => record.runs[k].includes(id));
    if (!cell) throw new Error(`--set-aside ${id}: no cell of the record has that run`);
    record.runs[cell] = record.runs[cell].filter((x) => x !== id);
    (record.superseded ??= []).push({ cell, runs: [id], reason });
  }
}

/** The plan narrowed to the claims named (their cells and comparisons), or the whole plan. */
export function planFor(plan: FindingsPlan, claims?: readonly string[]): { plan: FindingsPlan; comparisons: ReturnType<typeof watchedComparisons> } {
  if (!claims) return { plan, comparisons: watchedComparisons(plan) };
  const unknown = claims.filter((id) => !CLAIMS.some((c) => c.id === id));
  if (unknown.length) throw new Error(`--claims: no claim ${unknown.join(', ')} (claims: ${CLAIMS.map((c) => c.id).join(', ')})`);
  const narrowed = { ...plan, cells: plan.cells.filter((c) => c.usedBy.some((id) => claims.includes(id))) };
  return { plan: narrowed, comparisons: watchedComparisons(narrowed, CLAIMS.filter((c) => claims.includes(c.id))) };
}

/** Seconds per run of the recorded run so far (search and bring-ups included): the pace a continuation plans its first round with. */
export function recordedPace(record: FindingsRecord): number | null {
  const runs = Object.values(record.runs).reduce((n, ids) => n + ids.length, 0) + (record.superseded ?? []).reduce((n, s) => n + s.runs.length, 0) + record.paper.probes.length;
  if (!record.endedAt || !runs) return null;
  return (Date.parse(record.endedAt) - Date.parse(record.startedAt)) / 1000 / runs;
}

/** Runs recorded so far for a cell. */
const attemptsIn =
  (record: FindingsRecord) =>
  (c: PlannedCell): number =>
    record.runs[cellKey(c)]?.length ?? 0;

/** The cells in scope a continuation runs next: still active by the stopping rule, with a peak measured, below the session's maximum. */
function cellsStillToRun(scope: ReturnType<typeof planFor>, record: FindingsRecord, sides: Record<string, Side>, maxRuns: number): PlannedCell[] {
  const attempts = attemptsIn(record);
  return activeCells(scope.plan, scope.comparisons, sides).filter((c) => record.peaks[c.level] !== undefined && attempts(c) < maxRuns);
}

/** Sessions a stopped process left open, closed as interrupted at their last save. */
export function closeInterrupted(record: FindingsRecord): void {
  for (const c of record.continuations ?? []) {
    if (c.endedAt !== null) continue;
    c.endedAt = c.lastSavedAt ?? c.startedAt;
    c.interrupted = true;
  }
}

/** What a continuation would run (--dry-run): the cells still active under its claims, the runs each may get, the time at the recorded pace. */
export function continuationPreview(recordedPlan: FindingsPlan, record: FindingsRecord, sides: Record<string, Side>, o: Pick<ContinueOptions, 'claims' | 'maxRuns' | 'budgetMin'>): string {
  const plan = withMaxRuns(recordedPlan, o.maxRuns);
  const { maxRuns } = plan.protocol.stopping;
  const attempts = attemptsIn(record);
  const active = cellsStillToRun(planFor(plan, o.claims), record, sides, maxRuns);
  const pace = recordedPace(record) ?? 120;
  const runs = active.reduce((n, c) => n + maxRuns - attempts(c), 0);
  const minutes = (runs * pace) / 60;
  return [
    `continue (dry run): claims ${o.claims?.join(', ') ?? 'all'}; up to ${maxRuns} runs a cell; budget ${o.budgetMin} min`,
    ...(active.length ? active.map((c) => `  ${cellKey(c)}: ${attempts(c)} runs so far, up to ${maxRuns - attempts(c)} more`) : ['  no cell needs more runs: every comparison in scope is settled or at its maximum']),
    `at most ${runs} runs ≈ ${minutes.toFixed(0)} min at the recorded pace of ${pace.toFixed(0)} s a run${minutes > o.budgetMin ? ` (the budget stops it after ≈ ${Math.floor((o.budgetMin * 60) / pace)} runs)` : ''}`,
  ].join('\n');
}

export function continueFindings(recordedPlan: FindingsPlan, record: FindingsRecord, dir: string, o: ContinueOptions): Promise<FindingsRecord> {
  return exclusive(`bench findings --continue ${dir}`, () => continueFindingsNow(recordedPlan, record, dir, o));
}

async function continueFindingsNow(recordedPlan: FindingsPlan, record: FindingsRecord, dir: string, o: ContinueOptions): Promise<FindingsRecord> {
  const plan = withMaxRuns(recordedPlan, o.maxRuns);
  const session: Continuation = { startedAt: new Date().toISOString(), endedAt: null, seed: o.seed, claimsVersion: CLAIMS_VERSION, budgetMin: o.budgetMin, claims: o.claims ?? 'all', rerun: o.rerun ?? [], ...(o.setAside?.length ? { setAside: o.setAside } : {}), ...(o.maxRuns !== undefined ? { maxRuns: o.maxRuns } : {}), firstRound: record.rounds.length, commit: (await projectCommit()) ?? 'unknown' };
  if (o.rerun?.length) supersede(record, o.rerun, o.because ?? 'rerun requested');
  if (o.setAside?.length) setAside(record, o.setAside, o.because ?? 'set aside');
  closeInterrupted(record);
  (record.continuations ??= []).push(session);
  const scope = planFor(plan, o.claims);
  record.comparisons = watchedComparisons(plan);
  const save = (): void => {
    session.lastSavedAt = new Date().toISOString();
    writeFileSync(join(dir, RECORD_FILE), JSON.stringify(record, null, 2));
  };
  const ctx = { record, specs: derivedSpecs(plan, dir), one: oneRun(plan, o.placement), save };
  const stopping = plan.protocol.stopping;
  const attempts = attemptsIn(record);
  const rng = seededRng(o.seed);
  const started = Date.now();
  let runsDone = 0;
  save();
  try {
    for (let i = 0; i < stopping.maxRuns; i++) {
      const active = cellsStillToRun(scope, record, sidesOf(record), stopping.maxRuns);
      const pace = runsDone ? (Date.now() - started) / 1000 / runsDone : (recordedPace(record) ?? 120);
      const { cells, stopped } = roundCells(active, attempts, { round: record.rounds.length + 1, minRuns: stopping.minRuns, elapsedS: (Date.now() - started) / 1000, secondsPerRun: pace, budgetS: o.budgetMin * 60 });
      if (stopped) {
        session.stoppedEarly = `time budget: ${stopped}`;
        phase(`findings --continue: stopped, ${session.stoppedEarly}`);
        break;
      }
      if (!cells.length) break;
      runsDone += await runRound(roundOrder(cells, rng), record.rounds.length + 1, ctx);
    }
  } finally {
    session.endedAt = new Date().toISOString();
    // The record's stopping states, over every comparison of the current claims (not only --claims').
    settle(plan, record.comparisons, sidesOf(record));
    save();
    await variantDown().catch(() => undefined);
  }
  return record;
}
