#!/usr/bin/env node
// npm run bench -- findings --compare <recordA> <recordB> [--out <dir>]
// npm run bench -- findings --publish [dir] [--check] [--scorecard <dir>] [--docs <dir>]
// npm run bench -- findings [--quick] [--dry-run] [--evaluate [dir]] [--continue [dir] [--claims ids] [--rerun cells | --set-aside run-ids --because why]] [--saturation <it/s>] [--seed <n>] [--out <dir>]
// (`npm run findings -- ...` is the same command: this file run on its own, the same registration.)
// Paper 000's findings (i)–(vii) and RQ1–RQ3 as verdicts -> results/findings/<date>/findings.{md,html,json}.
import { Command } from 'commander';
import { addPlacementOptions, commaList, opt, positiveNumber } from '../options';
import { placementRequest, type PlacementFlags } from '../placement/options';
import { detectCpuset } from '../placement/detect';
import { placementText, planPlacement } from '../placement/plan';
import { sutCpuCount } from '../placement/testbed';
import { phase } from '../log';
import { repoRoot, resultsDir } from '../paths';
import { measuredCapacity, type Capacity } from './loads';
import { DEFAULT_PAPER_START, findingsPlan, needsCapacity, NOMINAL_CAPACITY, planText, PROTOCOLS, scaledCalibrationPeaks, type FindingsPlan, type PaperStart } from './plan';
import { searchStart } from './search-start';
import { configurationsOf, scaleModelFor } from '../placement/scale-model';
import { checkAllPublished, checkPublished } from './publish';
import { publishRecord } from './publish-record';
import { commandOf, latestRecordDir, readRecord } from './record';
import { evaluateRecord, findingsDir, runFindings, sidesOf } from './run';
import { continuationPreview, continueFindings } from './continue';
import { calibrateFirst } from './calibrate-first';
import { exclusive } from '../harness-lock';
import { compareDir, compareRecords, readFindingsFile, recordDir, writeRecordsComparison } from './compare-records';

/** A scale model fits the plan's largest configuration: every cell's variant (a derived one counts as its base). */
const planVariants = (p: FindingsPlan): string[] => p.cells.map((c) => c.derived?.from ?? c.variant);

/** The `findings` command, defined on `program` (a fresh Command or a parent's `command('findings')`). */
export function defineFindingsCommand(program: Command): Command {
  program
    .description("paper 000's findings as verdicts at loads set by measured capacity: interleaved adaptive runs, Welch + Mann–Whitney + TOST, the methodology section")
    .option('--quick', 'the 2 × 2 and one replicated configuration per architecture at 0.5× and the paper-equivalent load, 2 runs a cell (≤ 30 min)')
    .addOption(opt('smoke', { description: 'naked-mon and msa-1-1 at 0.5× and the paper-equivalent load, 2 short runs a cell (~9 min): the machinery end to end, not a verdict' }))
    .addOption(opt('dryRun', { description: 'print the plan (every cell × load × run, estimated duration) and run nothing' }))
    .addOption(opt('evaluate', { description: 'run nothing: evaluate the runs recorded in <dir>/findings-runs.json (default: the newest findings folder)' }))
    .addOption(opt('continue', { description: 'add rounds to the run recorded in <dir> (default: the newest): cells the current claims read that it lacks, --rerun cells, comparisons still too wide; within --budget-min (default 60), then evaluate everything recorded' }))
    .option('--claims <ids>', 'with --continue: only these claims\' comparisons keep cells running (comma-separated, e.g. v,RQ2)', commaList)
    .option('--rerun <cells>', 'with --continue: set these cells\' runs aside (kept in the record as superseded) and run them again (comma-separated variant@level)', commaList)
    .option('--set-aside <run-ids>', 'with --continue: take these runs out of their cells (kept in the record as superseded; comma-separated run ids)', commaList)
    .option('--max-runs <n>', "with --continue: raise the stated maximum of runs a cell for this session (recorded), e.g. to the runs a verdict says would settle it", positiveNumber)
    .option('--because <reason>', 'with --rerun or --set-aside: why the runs are set aside (recorded)')
    .addOption(opt('saturation', { description: "naked-mon's sustainable rate, the loads' unit (default: its newest calibration meeting the SLO)" }))
    .addOption(opt('seed'))
    .addOption(opt('out', { description: 'output folder (default: results/findings/<date>)' }))
    .option('--publish [dir]', 'run nothing: from the evaluated record in <dir> (default: the newest), write docs/findings (findings.md, methodology.md, the scorecard, the compact findings.json they are rendered from) and the README\'s findings section for a full record; docs/findings/<mode> for a quick or smoke one, the README left to the full record')
    .option('--compare <records...>', 'run nothing: two evaluated records (folders — a published one such as docs/findings/quick too — or names under results/findings) side by side — per claim both verdicts, whether they agree on every claim both decide, the parts that differ (verdict, B − A and its interval, evidence) and each one\'s speed probes -> findings-compare.{md,json} in --out (default: results/findings-compare/<A>-vs-<B>)')
    .option('--check', 'with --publish and no dir: regenerate docs/findings, each quick or smoke record published under it and the README section from their findings.json, and fail unless byte-identical')
    .option('--scorecard <dir>', 'with --publish: the reproduction (bench reproduce 000) whose scorecard.json to include (default: the newest; "none" for none)')
    .option('--docs <dir>', 'with --publish: the folder to write (default: docs/findings, or docs/findings/<mode> for a quick or smoke record)')
    .addOption(opt('budgetMin', { description: "time budget: a round beyond the minimum starts only if it ends within it at the run's measured pace (default: the mode's, 180 full / 30 quick)" }));
  return addPlacementOptions(program)
    .action(async (f: PlacementFlags & { compare?: string[]; publish?: string | true; check?: boolean; scorecard?: string; docs?: string; quick?: boolean; smoke?: boolean; dryRun?: boolean; evaluate?: string | true; continue?: string | true; claims?: string[]; rerun?: string[]; setAside?: string[]; because?: string; maxRuns?: number; saturation?: number; seed?: number; out?: string; budgetMin?: number }) => {
      if (f.compare) {
        if (f.compare.length !== 2) throw new Error(`--compare takes two records, not ${f.compare.length}: --compare <recordA> <recordB>`);
        const [a, b] = f.compare.map(recordDir);
        const c = compareRecords(readFindingsFile(a), readFindingsFile(b), [f.compare[0], f.compare[1]]);
        const files = writeRecordsComparison(c, f.out ?? compareDir(a, b));
        process.stdout.write(`${c.agreeOnDecided ? 'agree' : `disagree on ${c.disagree.join(', ')}`} (both decided: ${c.bothDecided.join(', ') || 'none'})\n${files.join('\n')}\n`);
        return;
      }
      if (f.publish) {
        if (f.check) {
          const differ = f.docs ? checkPublished(f.docs) : checkAllPublished(repoRoot());
          if (differ.length) throw new Error(`not what their findings.json renders: ${differ.join(', ')} (npm run findings -- --publish <record> writes them)`);
          process.stdout.write(`${f.docs ?? 'docs/findings (every record published there)'} and the README's findings section are their JSON's, byte for byte\n`);
          return;
        }
        const dir = f.publish === true ? latestRecordDir() : f.publish;
        if (!dir) throw new Error('no results/findings/*/findings-runs.json to publish');
        const files = publishRecord(dir, { repo: repoRoot(), docsDir: f.docs, scorecardDir: f.scorecard === 'none' ? null : f.scorecard, command: commandOf(readRecord(dir)) });
        process.stdout.write(files.join('\n') + '\n');
        return;
      }
      if (f.evaluate) {
        const dir = f.evaluate === true ? latestRecordDir() : f.evaluate;
        if (!dir) throw new Error('no results/findings/*/findings-runs.json to evaluate');
        const record = readRecord(dir);
        const out = evaluateRecord({ ...findingsPlan(record.mode, { seed: record.seed, capacity: record.capacity }) }, record, f.out ?? dir);
        process.stdout.write(out.markdown + '\n');
        return;
      }
      if (f.continue) {
        const dir = f.continue === true ? latestRecordDir() : f.continue;
        if (!dir) throw new Error('no results/findings/*/findings-runs.json to continue');
        if ((f.rerun?.length || f.setAside?.length) && !f.because) throw new Error('--rerun and --set-aside need --because <reason>: the record keeps why runs were set aside');
        const record = readRecord(dir);
        const resumed = findingsPlan(record.mode, { seed: record.seed, capacity: record.capacity });
        const budgetMin = f.budgetMin ?? 60;
        if (f.dryRun) {
          process.stdout.write(continuationPreview(resumed, record, sidesOf(record), { claims: f.claims, maxRuns: f.maxRuns, budgetMin }) + '\n');
          return;
        }
        const started = Date.now();
        await continueFindings(resumed, record, dir, { budgetMin, seed: f.seed ?? Date.now() % 2 ** 31, claims: f.claims, rerun: f.rerun, setAside: f.setAside, because: f.because, maxRuns: f.maxRuns, placement: placementRequest(f, planVariants(resumed)) });
        const out = evaluateRecord(resumed, record, dir);
        process.stdout.write(out.markdown + '\n');
        phase(`findings --continue: ${out.files.join(', ')} (${((Date.now() - started) / 60000).toFixed(1)} min)`);
        return;
      }
      // A new run (or its dry run): capacity from the newest calibration, the search started where the newest comparable search points.
      const mode = f.smoke ? 'smoke' : f.quick ? 'quick' : 'full';
      const placed = planPlacement(placementRequest(f) ?? {}, { profileName: PROTOCOLS[mode].profile, findings: true }, detectCpuset());
      const model = () => scaleModelFor(configurationsOf(planVariants(findingsPlan(mode))), sutCpuCount(placed), f.scale);
      const startFor = (capacity: Capacity | null): PaperStart | undefined =>
        capacity ? searchStart({ capacity, timeoutS: PROTOCOLS[mode].timeoutS, testbed: f.testbed, unscaled: DEFAULT_PAPER_START[mode], model }) : undefined;
      // In the scale model naked-mon's capacity is the monolith's share of the unscaled one: the calibration's steps are scaled alike.
      const calibrationPeaks = f.testbed === 'scaled' ? scaledCalibrationPeaks(model()) : undefined;
      const planFor = (capacity: Capacity | null, seed = f.seed) => findingsPlan(mode, { seed, capacity, budgetMin: f.budgetMin, testbed: f.testbed, paperStart: startFor(capacity), calibrationPeaks });
      // A mode whose every level is searched (--quick) needs no calibration: its multiples count in a nominal unit.
      // In the scale model the capacity is the model's: calibrated first under the same quotas (its file records them; measuredCapacity reads unscaled ones only).
      const measured = f.saturation !== undefined ? { rate: f.saturation, source: '--saturation' } : f.testbed === 'scaled' ? null : measuredCapacity(resultsDir(), { placed: f.placement !== 'off' });
      const plan = planFor(measured ?? (needsCapacity(PROTOCOLS[mode]) ? null : NOMINAL_CAPACITY));
      process.stdout.write(planText(plan) + '\n');
      process.stdout.write(`placement: ${placementText(placed)}\n`);
      if (f.dryRun) return;
      const dir = f.out ?? findingsDir();
      const started = Date.now();
      // One hold of the harness lock over the calibration and the run: nothing else loads the machine between them.
      const { planned, record } = await exclusive(`bench findings (${mode})`, async () => {
        if (plan.capacity) return { planned: plan, record: await runFindings(plan, dir, placementRequest(f, planVariants(plan))) };
        const capacity = await calibrateFirst(placementRequest(f, planVariants(plan)), plan.calibrationPeaks);
        const calibratedFirst = { source: capacity.source, startedAt: new Date(started).toISOString(), seconds: Math.round((Date.now() - started) / 1000) };
        phase(`findings: naked-mon calibrated first: ${capacity.rate} it/s (${calibratedFirst.seconds} s)`);
        const replanned = planFor(capacity, plan.seed);
        process.stdout.write(planText(replanned) + '\n');
        return { planned: replanned, record: await runFindings(replanned, dir, placementRequest(f, planVariants(replanned)), calibratedFirst) };
      });
      const out = evaluateRecord(planned, record, dir);
      process.stdout.write(out.markdown + '\n');
      phase(`findings: ${out.files.join(', ')} (${((Date.now() - started) / 60000).toFixed(1)} min)`);
    });
}

/** `bench findings ...`: the command registered on the front door (benchmarks/src/cli.ts). */
export const registerFindingsCommand = (parent: Command): Command => defineFindingsCommand(parent.command('findings'));

if (require.main === module) {
  defineFindingsCommand(new Command('findings'))
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      process.stderr.write(`findings: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
