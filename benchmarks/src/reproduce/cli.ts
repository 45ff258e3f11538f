// npm run bench -- reproduce 000 [--dry-run] [--continue [dir]] [--smoke] [--runs <n ≥ 3, any with --smoke>] [--budget-min <min>] [--only <labels|presets>] [--saturation <it/s>] [--multiple <m>] [--seed <n>] [--out <dir>] [--evaluate [dir]] [--testbed scaled]
// Paper 000's Tables I–II configurations at the paper-equivalent load -> results/reproduce/<date>/scorecard.{md,html,json}.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { addPlacementOptions, commaList, opt, positiveNumber } from '../options';
import { placementRequest, type PlacementFlags } from '../placement/options';
import { detectCpuset } from '../placement/detect';
import { placementText, planPlacement } from '../placement/plan';
import { phase } from '../log';
import { resultsDir } from '../paths';
import { measuredCapacity } from '../findings/loads';
import { DEFAULT_PAPER_START, NOMINAL_CAPACITY } from '../findings/plan';
import { searchStart } from '../findings/search-start';
import { configurationsOf, scaleModelFor } from '../placement/scale-model';
import { sutCpuCount } from '../placement/testbed';
import { sidesOf } from '../findings/run';
import { PAPER_000_CONFIGURATIONS } from './paper-000';
import { paperCoverage } from './configurations';
import { overPlanBudget, reproducePlan, reproducePlanText } from './plan';
import { latestReproduceDir, readReproduceRecord, reproduceDir, SCORECARD_FILES, type ReproduceRecord } from './record';
import { currentBootId } from '../machine-speed';
import { continueReproduction, liveRunner, missingRuns, roundsDue, runReproduction } from './run';
import { buildScorecard, type Scorecard } from './scorecard';
import { scorecardHtml, scorecardMarkdown } from './page';

/** The scorecard of a recorded reproduction (its runs read from results/), written beside the record. */
export function scoreRecord(dir: string, record: ReproduceRecord = readReproduceRecord(dir)): Scorecard {
  const known = new Map(PAPER_000_CONFIGURATIONS.map((c) => [c.label, c]));
  const configurations = record.configurations.map((c) => ({ ...known.get(c.label)!, variant: c.variant }));
  const missing = PAPER_000_CONFIGURATIONS.filter((c) => !record.configurations.some((x) => x.label === c.label)).map((c) => c.label);
  const s = buildScorecard({
    configurations,
    missing,
    sides: sidesOf(record),
    record: { ...record, dir: relative(resultsDir(), dir) || '.', multiple: record.search.multiple ?? (record.peak !== null ? record.peak / record.capacity.rate : null), searchEfr: record.search.efr },
  });
  writeScorecard(s, dir);
  return s;
}

export function writeScorecard(s: Scorecard, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files = [join(dir, SCORECARD_FILES.json), join(dir, SCORECARD_FILES.md), join(dir, SCORECARD_FILES.html)];
  writeFileSync(files[0], JSON.stringify(s, null, 2) + '\n');
  writeFileSync(files[1], scorecardMarkdown(s));
  writeFileSync(files[2], scorecardHtml(s));
  return files;
}

interface Flags extends PlacementFlags {
  dryRun?: boolean;
  smoke?: boolean;
  runs?: number;
  budgetMin?: number;
  only?: string[];
  saturation?: number;
  multiple?: number;
  seed?: number;
  out?: string;
  evaluate?: string | true;
  continue?: string | true;
}

export function registerReproduceCommand(parent: Command): Command {
  const reproduce = parent
    .command('reproduce')
    .argument('<paper>', 'the paper whose tables to reproduce: 000')
    .description("every configuration of paper 000's Tables I–II a preset stands for, at the paper-equivalent load, ≥ 3 interleaved runs each; per configuration our figures beside the paper's, Spearman's ρ of the rankings with its interval, Table III's memory ranking")
    .addOption(opt('dryRun', { description: 'print the plan (configurations, runs in their seeded order, planned wall time against the budget) and run nothing' }))
    .addOption(opt('smoke', { description: "the runner end to end at the shortest shape (the smoke profile, a 10 s client timeout, one search probe), any number of runs (default 1): proves the machinery, decides nothing" }))
    .addOption(opt('runs', { description: 'runs a configuration (at least 3, any with --smoke; rounds past 3 only while they fit the budget)' }))
    .addOption(opt('budgetMin', { description: 'time budget, minutes (default 300): the plan refuses to start past it; rounds past 3 start only if they fit at the measured pace' }))
    .option('--only <configurations>', 'only these configurations (paper labels such as "MON×4" or preset names, comma-separated)', commaList)
    .addOption(opt('saturation', { description: "naked-mon's sustainable rate, the load's unit (default: its newest calibration on this boot)" }))
    .option('--multiple <m>', 'the paper-equivalent load as a multiple of the sustainable rate, instead of searching it', positiveNumber)
    .addOption(opt('seed'))
    .addOption(opt('out', { description: 'output folder (default: results/reproduce/<date>)' }))
    .addOption(opt('evaluate', { description: 'run nothing: score the runs recorded in <dir>/reproduce-runs.json (default: the newest)' }))
    .addOption(opt('continue', { description: 'give the reproduction recorded in <dir> (default: the newest) the runs it lacks, at its load, in its seeded order, on the boot that made its runs; then score everything recorded (--dry-run: what it would run)' }));
  return addPlacementOptions(reproduce)
    .action(async (paper: string, f: Flags) => {
      if (paper !== '000') throw new Error(`reproduce ${paper}: only paper 000's tables are transcribed (benchmarks/src/reproduce/paper-000.ts)`);
      if (f.evaluate) {
        const dir = f.evaluate === true ? latestReproduceDir() : f.evaluate;
        if (!dir) throw new Error('no results/reproduce/*/reproduce-runs.json to score');
        const s = scoreRecord(dir);
        process.stdout.write(scorecardMarkdown(s));
        return;
      }
      if (f.continue) return continueCommand(f.continue === true ? latestReproduceDir() : f.continue, f);
      const coverage = paperCoverage();
      // The one load is searched by naked-mon's EFR, so no calibration is needed: multiples count in the
      // newest unscaled calibration on this boot where there is one, else in a nominal unit.
      const capacity = f.saturation !== undefined ? { rate: f.saturation, source: '--saturation' } : ((f.testbed === 'scaled' ? null : measuredCapacity(resultsDir(), { placed: f.placement !== 'off' })) ?? NOMINAL_CAPACITY);
      // Which configurations and which run shape; the scale model fits the largest of them (--scale fixes s across plans).
      const draft = reproducePlan({ mode: f.smoke ? 'smoke' : 'full', runs: f.runs, only: f.only, coverage });
      const variants = draft.configurations.map((c) => c.variant);
      const placement = placementRequest(f, variants);
      const placed = planPlacement(placement ?? {}, { profileName: draft.protocol.profile, findings: true }, detectCpuset());
      const start = f.multiple !== undefined ? { multiple: f.multiple, source: '--multiple' } : searchStart({ capacity, timeoutS: draft.protocol.timeoutS, testbed: f.testbed, unscaled: DEFAULT_PAPER_START.full, model: () => scaleModelFor(configurationsOf(variants), sutCpuCount(placed), f.scale) });
      const plan = reproducePlan({ mode: f.smoke ? 'smoke' : 'full', runs: f.runs, testbed: f.testbed, capacity, paperStart: start, multipleGiven: f.multiple !== undefined, seed: f.seed, budgetMin: f.budgetMin, only: f.only, coverage });
      process.stdout.write(reproducePlanText(plan) + '\n');
      process.stdout.write(`placement: ${placementText(placed)}\n`);
      if (f.dryRun) return;
      const over = overPlanBudget(plan);
      if (over) throw new Error(over);
      const dir = f.out ?? reproduceDir();
      const started = Date.now();
      const record = await runReproduction(plan, dir, liveRunner(plan, placement));
      const s = scoreRecord(dir, record);
      process.stdout.write(scorecardMarkdown(s));
      phase(`reproduce: ${join(dir, SCORECARD_FILES.md)} (${((Date.now() - started) / 60000).toFixed(1)} min)`);
    });
}

/** --continue: the runs a recorded reproduction lacks, at its load and on its testbed; then its scorecard. */
async function continueCommand(dir: string | null, f: Flags): Promise<void> {
  if (!dir) throw new Error('--continue: no results/reproduce/*/reproduce-runs.json to continue');
  const record = readReproduceRecord(dir);
  if (f.testbed && f.testbed !== record.testbed) throw new Error(`--continue: the record ran on the ${record.testbed} testbed, not ${f.testbed}`);
  const variants = record.configurations.map((c) => c.variant);
  const multiple = record.peak === null ? 1 : record.peak / record.capacity.rate;
  const plan = reproducePlan({ mode: record.mode ?? 'full', runs: record.runsAsked, testbed: record.testbed, capacity: record.capacity, paperStart: { multiple, source: `the load of ${dir}` }, multipleGiven: true, seed: record.seed, budgetMin: f.budgetMin, only: variants });
  const placement = placementRequest({ ...f, testbed: record.testbed }, variants);
  process.stdout.write(
    `continue ${dir}: ${missingRuns(record)} of ${variants.length * record.runsAsked} runs to go (${variants.length} configurations × ${record.runsAsked}), every one at ${record.peak ?? '?'} it/s, testbed ${record.testbed}, seed ${record.seed}; its runs made on boot ${record.bootId ?? '(not recorded)'}, this is boot ${currentBootId() ?? '(unknown)'}\n`,
  );
  process.stdout.write(`placement: ${placementText(planPlacement(placement ?? {}, { profileName: plan.protocol.profile, findings: true }, detectCpuset()))}\n`);
  for (const r of roundsDue(record).filter((x) => x.due.length)) process.stdout.write(`round ${r.round}: ${r.due.join(' → ')}\n`);
  if (f.dryRun) return;
  const started = Date.now();
  await continueReproduction(plan, record, dir, liveRunner(plan, placement));
  const s = scoreRecord(dir, record);
  process.stdout.write(scorecardMarkdown(s));
  phase(`reproduce --continue: ${join(dir, SCORECARD_FILES.md)} (${((Date.now() - started) / 60000).toFixed(1)} min)`);
}
