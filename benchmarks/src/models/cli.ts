#!/usr/bin/env node
// npm run bench -- models <demands|predict|compare|saturation> ...   (see benchmarks/README.md, "Queueing models")
// `npm run models -- ...` is the same command (this file run on its own: the same registration).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { opt, positiveNumber } from '../options';
import { loadVariant } from '@shellgrade/variant';
import { resultStamp, resultsDir } from '../paths';
import { loadProfile } from '../profiles';
import { agreementMarkdown, agreementOver } from './agreement';
import { compare, comparisonMarkdown, type Comparison } from './compare';
import { measureDemands, readMeta, readRuns } from './demands';
import { measuredFromRuns, readK6Metrics } from './measured';
import { predictSaturation, predictVariant, type CpuModel } from './predict';
import { DEFAULT_SLO_P95_MS, demandsFor, readCalibration, saturationAgreement, saturationMarkdown, saturationRow } from './saturation';
import { runSpec } from './run-spec';

/** A run named by its id under results/, or by its folder. */
function runFolder(run: string): string {
  return existsSync(run) ? run : join(resultsDir(), run);
}

/** --demands where one run gives them. */
function oneDemandsRun(demands: string[] | undefined): string | undefined {
  if (demands && demands.length > 1) throw new InvalidArgumentError(`one --demands run here, got ${demands.length}`);
  return demands?.[0];
}

function required(value: string | undefined, what: string): string {
  if (!value) throw new InvalidArgumentError(`expected ${what}`);
  return value;
}

function write(file: string | undefined, value: unknown): void {
  const text = JSON.stringify(value, null, 2) + '\n';
  if (file) {
    writeFileSync(file, text);
    console.error(`written: ${file}`);
  } else process.stdout.write(text);
}

/** One comparison per run folder (means over its valid runs), or per valid run with perRun. */
function compareRuns(dir: string, demandsDir: string | undefined, perRun: boolean, model: CpuModel): Comparison[] {
  const meta = readMeta(dir);
  const spec = runSpec(dir, meta.variant);
  const demands = measureDemands(demandsDir ?? dir);
  const cores = meta.machine.cores;
  const atPeak = predictVariant(spec, demands, meta.profile.peak, cores, model);
  const runs = readRuns(dir);
  const sets = perRun ? runs.filter((r) => r.valid).map((r) => ({ label: `${dir} run ${r.run}`, runs: [r] })) : [{ label: dir, runs }];
  return sets.map(({ label, runs: set }) => {
    const measured = measuredFromRuns(set, (run) => readK6Metrics(dir, run));
    return compare(label, atPeak, predictVariant(spec, demands, measured.meanArrivalRate, cores, model), measured);
  });
}

/** The `models` command and its subcommands, defined on `program` (a fresh Command or a parent's `command('models')`). */
export function defineModelsCommand(program: Command): Command {
  program.description('queueing-network models of the variants (LINE solver): demands, predictions, comparisons with measurements');

  program
    .command('demands')
    .description('CPU-s per iteration of scenario R, per component and request class, measured by a finished run (JSON)')
    .argument('[run-folder]', 'a finished results/<run-id> folder')
    .addOption(opt('run', { description: 'the same, as an option: results/<run-id> or its folder' }))
    .addOption(opt('outFile', { description: 'write the demands here (default: stdout)' }))
    .action((dir: string | undefined, o: { run?: string; outFile?: string }) => write(o.outFile, measureDemands(dir ?? runFolder(required(o.run, 'a run folder')))));

  program
    .command('predict')
    .description("a variant's queueing-network prediction at a rate: saturation rate, bottleneck, utilisations, response times (JSON)")
    .argument('[variant]', 'preset name (infra/variants) or spec file')
    .addOption(opt('variant', { description: 'the same, as an option' }))
    .addOption(opt('demands', { mandatory: true }))
    .addOption(opt('rate'))
    .addOption(opt('profile', { description: "use the profile's peak as the rate", default: 'small' }))
    .option('--cores <n>', 'CPU cores of the machine (default: this one)', positiveNumber)
    .addOption(opt('cpuModel', { default: 'shared' }))
    .addOption(opt('outFile', { description: 'write the prediction here; - for stdout (default: results/models/predict-<variant>-<rate>.json)' }))
    .action((variant: string | undefined, o: { variant?: string; demands: string[]; rate?: number; profile: string; cores?: number; cpuModel: CpuModel; outFile?: string }) => {
      const rate = o.rate ?? loadProfile(o.profile).peak;
      const spec = loadVariant(required(variant ?? o.variant, 'a variant'));
      const prediction = predictVariant(spec, measureDemands(oneDemandsRun(o.demands)!), rate, o.cores ?? cpus().length, o.cpuModel);
      const out = o.outFile ?? join(resultsDir(), 'models', `predict-${spec.name}-${rate}.json`);
      if (out !== '-') mkdirSync(dirname(out), { recursive: true });
      write(out === '-' ? undefined : out, prediction);
    });

  program
    .command('compare')
    .description('prediction next to measurement for run folders; with several, the agreement over the set (Spearman ρ, MAE, normalised MAE)')
    .argument('<run-folders...>', 'measured run folders; with more than one, the agreement over the set')
    .addOption(opt('demands', { description: 'demands from this run for every variant (default: each run its own, which makes CPU rows fit by construction)' }))
    .option('--per-run', 'one comparison per valid run instead of their mean (run-to-run noise stays visible)')
    .addOption(opt('cpuModel', { default: 'shared' }))
    .addOption(opt('outFile', { description: 'write the comparison JSON (default: <run-folder>/model-compare.json for one run)' }))
    .action((dirs: string[], o: { demands?: string[]; perRun?: boolean; cpuModel: CpuModel; outFile?: string }) => {
      const comparisons = dirs.flatMap((dir) => compareRuns(dir, oneDemandsRun(o.demands), o.perRun ?? false, o.cpuModel));
      for (const c of comparisons) process.stdout.write(comparisonMarkdown(c) + '\n');
      if (comparisons.length === 1) {
        write(o.outFile ?? join(dirs[0], 'model-compare.json'), comparisons[0]);
        return;
      }
      const agreement = agreementOver(comparisons);
      process.stdout.write(`### Agreement over ${comparisons.length} runs\n\n${agreementMarkdown(agreement)}`);
      if (o.outFile) write(o.outFile, { schema: 'shellgrade.model-agreement/1', comparisons, agreement });
    });

  program
    .command('saturation')
    .description("predicted vs measured saturation rate over presets, from `bench calibrate` files (Spearman ρ of the ranking, normalised MAE of SPS/s at the steps)")
    .argument('<calibration-files...>', 'results/<stamp>-<variant>-calibration.json, one per preset')
    .addOption(opt('demands', { description: "predict every preset from these runs' demands (repeat --demands per run), each from the run of its own topology (default: the prediction each calibration recorded with --from-model)" }))
    .option('--slo-p95-ms <ms>', `a step counts as sustained only with SPS p95 within this (0: the calibration's keep-up test alone)`, Number, DEFAULT_SLO_P95_MS)
    .addOption(opt('outFile', { description: 'write the agreement JSON (default: results/models/saturation-<stamp>.json)' }))
    .action((files: string[], o: { demands?: string[]; sloP95Ms: number; outFile?: string }) => {
      const demandRuns = (o.demands ?? []).map((dir) => ({ dir, topology: readMeta(dir).topology }));
      const rows = files.map((file) => {
        const c = readCalibration(file);
        const predicted = demandRuns.length ? predictSaturation(c.variant, demandsFor(loadVariant(c.variant).topology, demandRuns)) : c.predicted;
        if (!predicted) throw new InvalidArgumentError(`${file} has no recorded prediction (calibrated without --from-model): pass --demands <run-folder>`);
        return saturationRow(file, c, predicted, o.sloP95Ms > 0 ? o.sloP95Ms : null);
      });
      const result = saturationAgreement(rows);
      process.stdout.write(saturationMarkdown(result));
      const out = o.outFile ?? join(resultsDir(), 'models', `saturation-${resultStamp()}.json`);
      mkdirSync(dirname(out), { recursive: true });
      write(out, result);
    });

  return program;
}

/** `bench models ...`: the command registered on the front door (benchmarks/src/cli.ts). */
export const registerModelsCommand = (parent: Command): Command => defineModelsCommand(parent.command('models'));

if (require.main === module) {
  defineModelsCommand(new Command('models'))
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
