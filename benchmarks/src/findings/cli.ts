#!/usr/bin/env node
// npm run findings [-- --quick] [--dry-run] [--from-results] [--out <dir>]
// Paper 000's findings (i)–(vii) and RQ1–RQ3 as verdicts -> results/findings/<date>/findings.{md,html,json}.
import { Command } from 'commander';
import { PLACEMENT_OPTIONS, placementRequest } from '../placement/options';
import { detectCpuset } from '../placement/detect';
import { placementText, planPlacement } from '../placement/plan';
import { phase } from '../log';
import { findingsPlan, planText } from './plan';
import { evaluateRuns, findingsDir, latestPlannedRuns, runPlan } from './run';

const program = new Command('findings')
  .description("paper 000's findings as verdicts with 95% intervals over valid runs, architecture separated from the blocking grader")
  .option('--quick', 'the 2 × 2 and one replicated configuration per architecture, 3 shortened runs (~24 min)')
  .option('--dry-run', 'print the plan (tests, protocol, estimated time) and run nothing')
  .option('--from-results', 'run nothing: evaluate the latest finished test of each planned variant in results/')
  .option('--out <dir>', 'output folder (default: results/findings/<date>)')
  .option(...PLACEMENT_OPTIONS.placement)
  .option(...PLACEMENT_OPTIONS.clientCpus)
  .option(...PLACEMENT_OPTIONS.sutCpus)
  .action(async (f: { quick?: boolean; dryRun?: boolean; fromResults?: boolean; out?: string; placement?: 'on' | 'off'; clientCpus?: string; sutCpus?: string }) => {
    const plan = findingsPlan(f.quick ? 'quick' : 'full');
    process.stdout.write(planText(plan) + '\n');
    process.stdout.write(`placement: ${placementText(planPlacement(placementRequest(f) ?? {}, { profileName: plan.protocol.profile, findings: true }, detectCpuset()))}\n`);
    if (f.dryRun) return;
    const dir = f.out ?? findingsDir();
    const started = Date.now();
    const ids = f.fromResults ? latestPlannedRuns(plan) : await runPlan(plan, dir, placementRequest(f));
    const out = evaluateRuns(plan, ids, dir);
    process.stdout.write(out.markdown + '\n');
    phase(`findings: ${out.files.join(', ')} (${((Date.now() - started) / 60000).toFixed(1)} min)`);
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`findings: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
