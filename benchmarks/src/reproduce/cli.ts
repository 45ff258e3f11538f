// npm run bench -- reproduce 000 [--dry-run] [--smoke] [--runs <n ≥ 3, any with --smoke>] [--budget-min <min>] [--only <labels|presets>] [--saturation <it/s>] [--multiple <m>] [--seed <n>] [--out <dir>] [--evaluate [dir]] [--testbed scaled]
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
import { exclusive } from '../harness-lock';
import { measuredCapacity, type Capacity } from '../findings/loads';
import { previousPaperStart } from '../findings/record';
import { calibrateFirst } from '../findings/calibrate-first';
import { sidesOf } from '../findings/run';
import { PAPER_000_CONFIGURATIONS } from './paper-000';
import { paperCoverage } from './configurations';
import { overPlanBudget, reproducePlan, reproducePlanText, type ReproducePlan } from './plan';
import { latestReproduceDir, readReproduceRecord, reproduceDir, SCORECARD_FILES, type ReproduceRecord } from './record';
import { runReproduction } from './run';
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
    .addOption(opt('evaluate', { description: 'run nothing: score the runs recorded in <dir>/reproduce-runs.json (default: the newest)' }));
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
      const coverage = paperCoverage();
      const planFor = (capacity: Capacity | null, seed = f.seed): ReproducePlan => {
        const start = f.multiple !== undefined ? { multiple: f.multiple, source: '--multiple' } : capacity ? (previousPaperStart({ rate: capacity.rate, timeoutS: 60 }) ?? undefined) : undefined;
        return reproducePlan({ mode: f.smoke ? 'smoke' : 'full', runs: f.runs, testbed: f.testbed, capacity, paperStart: start, multipleGiven: f.multiple !== undefined, seed, budgetMin: f.budgetMin, only: f.only, coverage });
      };
      // In the scale model the capacity is the model's: calibrated first under the same quotas (its file records them; measuredCapacity reads unscaled ones only).
      const plan = planFor(f.saturation !== undefined ? { rate: f.saturation, source: '--saturation' } : f.testbed === 'scaled' ? null : measuredCapacity(resultsDir(), { placed: f.placement !== 'off' }));
      // The scale model fits the plan's largest configuration (with --only, the ones it runs; --scale fixes s across plans).
      const placement = placementRequest(f, plan.configurations.map((c) => c.variant));
      process.stdout.write(reproducePlanText(plan) + '\n');
      process.stdout.write(`placement: ${placementText(planPlacement(placement ?? {}, { profileName: plan.protocol.profile, findings: true }, detectCpuset()))}\n`);
      if (f.dryRun) return;
      const over = overPlanBudget(plan);
      if (over) throw new Error(over);
      const dir = f.out ?? reproduceDir();
      const started = Date.now();
      const record = await exclusive('bench reproduce 000', async () => {
        if (plan.capacity) return runReproduction(plan, dir, placement);
        const capacity = await calibrateFirst(placement);
        phase(`reproduce: naked-mon calibrated first: ${capacity.rate} it/s (${Math.round((Date.now() - started) / 1000)} s)`);
        return runReproduction(planFor(capacity, plan.seed), dir, placement);
      });
      const s = scoreRecord(dir, record);
      process.stdout.write(scorecardMarkdown(s));
      phase(`reproduce: ${join(dir, SCORECARD_FILES.md)} (${((Date.now() - started) / 60000).toFixed(1)} min)`);
    });
}
