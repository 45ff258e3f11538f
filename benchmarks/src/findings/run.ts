// The live side of `npm run findings`: the paper-equivalent search on naked-mon, then rounds of
// single runs — every cell still undecided once per round, in the seeded order (schedule.ts) —
// until each comparison's interval is precise enough or the maximum (stats/stopping.ts). The
// record (findings-runs.json: seed, capacity, search, order, run ids, stopping states) is written
// after every run, so --evaluate can judge a run that was stopped.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadVariant, mergeSpec, validateVariant } from '@shellgrade/variant';
import { stringify } from 'yaml';
import { loadSide, type Side } from '../compare/sides';
import { phase } from '../log';
import { newRecordDir, resultsDir } from '../paths';
import { makeRunId, runTest } from '../run-test';
import { variantDown } from '../stack';
import type { Aggregated } from '../types';
import type { PlacementRequest } from '../placement/plan';
import { roundOverBudget } from './budget';
import { DISCARD_UNTOLD_AFTER_S } from './pricing';
import { writeDesignCompares } from './design-compares';
import { designCellsOf, evaluateFindings } from './evaluate';
import { CAPACITY_VARIANT, paperProbeOf, paperResult, peakOf, searchPaperLoad } from './loads';
import { mergeSides } from './merge-sides';
import { methodology } from './methodology';
import type { DerivedVariant, FindingsPlan } from './plan';
import { activeCells, watchedComparisons } from './watched';
import { RECORD_FILE, type CalibratedFirst, type FindingsRecord } from './record';
import { writeFindingsReport } from './report';
import { cellKey, roundOrder, seededRng, type CellId } from './schedule';
import { CLAIMS_VERSION } from './claims';
import { designTable } from './two-by-two';
import { exclusive } from '../harness-lock';
import { runRoundInOrder } from './round-runs';

/** A new findings record's folder: results/findings/<day>, or <day>T<hhmm>Z when the day's holds a record already. */
export function findingsDir(at = new Date()): string {
  return newRecordDir(join(resultsDir(), 'findings'), RECORD_FILE, at);
}

/** A derived cell as a resolved spec file named after it (the runner names the test by it). */
export function writeDerivedSpec(d: DerivedVariant, dir: string): string {
  const base = loadVariant(d.from) as unknown as Record<string, unknown>;
  const spec = validateVariant({ ...mergeSpec(base, d.set), name: d.name, description: `${d.from} with ${JSON.stringify(d.set)} (findings 2 × 2 cell)` }, d.name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${d.name}.yaml`);
  writeFileSync(file, stringify(spec));
  return file;
}

/** Sides of every cell from the record's run ids (one folder per run, merged). */
export function sidesOf(record: Pick<FindingsRecord, 'runs'>, root?: string): Record<string, Side> {
  const out: Record<string, Side> = {};
  for (const [key, ids] of Object.entries(record.runs)) {
    if (ids.length) out[key] = mergeSides(ids.map((id) => loadSide(root ? join(root, id) : id)));
  }
  return out;
}

/** One run of a variant at a peak under the plan's protocol, kept up for the next cell of the same variant. */
export type OneRun = (variant: string, peak: number, label: string) => Promise<Aggregated>;

export function oneRun(plan: FindingsPlan, placement?: PlacementRequest): OneRun {
  const pr = plan.protocol;
  return (variant, peak, label) =>
    runTest({ variant, profile: pr.profile, runs: 1, peak, rampS: pr.rampS, holdS: pr.holdS, pauseS: pr.pauseS, timeoutS: pr.timeoutS, runId: makeRunId(variant.replace(/^.*\/|\.yaml$/g, ''), label, undefined), keepUp: true, findings: true, placement, discardUntoldAfterS: DISCARD_UNTOLD_AFTER_S });
}

/** Spec files of the plan's derived cells, by variant name. */
export function derivedSpecs(plan: FindingsPlan, dir: string): Map<string, string> {
  const specs = new Map<string, string>();
  for (const c of plan.cells) if (c.derived && !specs.has(c.variant)) specs.set(c.variant, writeDerivedSpec(c.derived, join(dir, 'specs')));
  return specs;
}

export interface RoundContext {
  record: FindingsRecord;
  specs: Map<string, string>;
  one: OneRun;
  save: () => void;
}

/** One round in the given order: each cell once, its run id recorded (or its failure), the record saved after each. Returns the runs attempted. */
export async function runRound(order: CellId[], round: number, x: RoundContext): Promise<number> {
  x.record.rounds.push(order.map(cellKey));
  return runRoundInOrder(order, {
    study: 'findings',
    round,
    keyOf: cellKey,
    run: (c) => x.one(x.specs.get(c.variant) ?? c.variant, x.record.peaks[c.level]!, `findings-${c.level}-r${round}`),
    runs: x.record.runs,
    failed: (cell, error) => x.record.failed.push({ cell, round, error }),
    save: x.save,
  });
}

/** `calibratedFirst`: the calibration the command made before (calibrate-first.ts): recorded, and counted in the time budget. */
export function runFindings(plan: FindingsPlan, dir: string, placement?: PlacementRequest, calibratedFirst?: CalibratedFirst): Promise<FindingsRecord> {
  return exclusive(`bench findings (${plan.mode})`, () => runFindingsNow(plan, dir, placement, calibratedFirst));
}

async function runFindingsNow(plan: FindingsPlan, dir: string, placement?: PlacementRequest, calibratedFirst?: CalibratedFirst): Promise<FindingsRecord> {
  if (!plan.capacity) throw new Error('no sustainable rate of naked-mon: run `npm run bench -- calibrate --variant naked-mon` first, or pass --saturation <it/s>');
  mkdirSync(dir, { recursive: true });
  const pr = plan.protocol;
  const rate = plan.capacity.rate;
  // The budget is the command's: a calibration made first spent part of it.
  const started = calibratedFirst ? Date.parse(calibratedFirst.startedAt) : Date.now();
  const record: FindingsRecord = { mode: plan.mode, seed: plan.seed, capacity: plan.capacity, paper: paperResult([]), peaks: {}, rounds: [], runs: {}, failed: [], comparisons: watchedComparisons(plan), budgetMin: pr.budgetMin, clientTimeoutS: pr.timeoutS, paperStart: plan.paperStart, ...(plan.testbed ? { testbed: plan.testbed } : {}), claimsVersion: CLAIMS_VERSION, ...(calibratedFirst ? { calibratedFirst } : {}), startedAt: new Date().toISOString(), endedAt: null };
  const save = (): void => writeFileSync(join(dir, RECORD_FILE), JSON.stringify(record, null, 2));
  const one = oneRun(plan, placement);
  try {
    // The paper-equivalent load, searched on naked-mon before the rounds (its runs are recorded, not compared).
    // An INVALID probe's EFR steers the search; only a VALID probe's multiple becomes the load.
    const probe = async (m: number, peak: number) => {
      phase(`findings: paper-equivalent search, naked-mon at ${m}× = ${peak} it/s`);
      return paperProbeOf(m, peak, await one(CAPACITY_VARIANT, peak, `findings-search-${m}x`));
    };
    record.paper = await searchPaperLoad(
      probe,
      pr.paperProbes,
      (search) => {
        record.paper = search;
        save();
      },
      { first: plan.paperStart.multiple, rate },
    );
    for (const level of pr.levels) {
      const p = peakOf(level, rate, record.paper.multiple);
      if (p !== null) record.peaks[level] = p;
    }
    const found = record.paper.multiple === null ? `paper-equivalent not found (${record.paper.notFound}): its cells are not run` : `paper-equivalent ${record.paper.multiple}× (EFR ${(100 * record.paper.efr!).toFixed(1)}%)`;
    phase(`findings: peaks ${JSON.stringify(record.peaks)}; ${found}`);
    const specs = derivedSpecs(plan, dir);
    const rng = seededRng(plan.seed);
    let active = plan.cells.filter((c) => record.peaks[c.level] !== undefined);
    const roundsStarted = Date.now();
    let runsDone = 0;
    for (let round = 1; round <= pr.stopping.maxRuns && active.length; round++) {
      const overBudget = runsDone
        ? roundOverBudget({ round, minRuns: pr.stopping.minRuns, elapsedS: (Date.now() - started) / 1000, secondsPerRun: (Date.now() - roundsStarted) / 1000 / runsDone, cells: active.length, budgetS: pr.budgetMin * 60 })
        : null;
      if (overBudget) {
        record.stoppedEarly = `time budget: ${overBudget}`;
        phase(`findings: stopped, ${record.stoppedEarly}`);
        break;
      }
      runsDone += await runRound(roundOrder(active, rng), round, { record, specs, one, save });
      active = activeCells(plan, record.comparisons, sidesOf(record)).filter((c) => record.peaks[c.level] !== undefined);
      save();
    }
  } finally {
    record.endedAt = new Date().toISOString();
    save();
    await variantDown().catch(() => undefined);
  }
  return record;
}

/** Verdicts, the 2 × 2 and its compare pages, the methodology, written under `dir` (links to runs relative to resultsRoot). */
export function evaluateCells(plan: FindingsPlan, cells: Record<string, Side>, dir: string, resultsRoot = resultsDir(), record?: FindingsRecord): { markdown: string; files: string[] } {
  const input = { plan, cells };
  const results = evaluateFindings(input);
  const designCells = designCellsOf(input);
  const compares = writeDesignCompares(designCells, dir);
  const method = methodology({ plan, cells, results, record, resultsRoot });
  return writeFindingsReport(results, designTable(designCells), { plan, cells, dir, resultsRel: relative(dir, resultsRoot) || '.', generatedAt: new Date().toISOString(), compares, record, methodology: method });
}

export function evaluateRecord(plan: FindingsPlan, record: FindingsRecord, dir: string): { markdown: string; files: string[] } {
  return evaluateCells(plan, sidesOf(record), dir, resultsDir(), record);
}
