#!/usr/bin/env node
// npm run bench -- <run|matrix|report|compare|replay|faults|main|models|findings|traces|storage-growth|grader|...> ...   (see benchmarks/README.md)
// The one front door of the research tools: `npm run models|findings|traces` run the same registrations on their own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { addPlacementOptions, deprecatedArgument, opt, positiveInt, positiveNumber, type OptionName } from './options';
import { registerTracesCommand } from '@shellgrade/traces';
import { phase } from './log';
import { buildReport } from './report/report';
import { calibrate, calibrationMarkdown, MODEL_STEP_FACTORS, peaksAround, SCENARIO_PROTOCOL, type CalibrationScenario } from './calibrate';
import { predictSaturation } from './models/predict';
import { DEFAULT_POWER_MODEL, type PowerModel } from './energy';
import { runTest, type RunOptions } from './run-test';
import { exclusive } from './harness-lock';
import { runComparison } from './compare/write';
import { DEFAULT_LAST, presetTrend, trendMarkdown } from './compare/trend';
import { executeReplay, replayPlanFor } from './provenance/replay-run';
import { replayPlanText } from './provenance/replay-plan';
import { runPaper001 } from './sweep/paper001';
import { runSweep, SWEEP_CLASSES, type SweepClass } from './sweep/run-sweep';
import { runMix } from './mix/run-mix';
import { reanalyseSuiteRuns } from './suites/reanalyse';
import { suiteLine } from './suites/describe';
import { MIX_PATTERNS } from './mix/patterns';
import { placementRequest, type PlacementFlags } from './placement/options';
import { registerFaultsCommand } from './faults/command';
import { registerModelsCommand } from './models/cli';
import { registerFindingsCommand } from './findings/cli';
import { registerReproduceCommand } from './reproduce/cli';
import { registerStorageGrowthCommand } from './storage/command';
import { mainJob } from './main-job';
import { registerBackToBackCommand } from './back-to-back/run';
import { registerPgStatementsCommand } from './pg-statements';
import { registerGraderCommand } from './grader/command';
import { registerPasswordHashCommand } from './password-hash-bench';
import { registerLoginCpuCommand } from './login-cpu-bench';

interface CommonFlags extends PlacementFlags {
  profile: string;
  runs?: number;
  pauseS?: number;
  tracing?: 'on' | 'off';
  kdfCost?: number;
  cpuProf?: boolean;
  raw?: boolean;
  apdexTMs?: number;
  peak?: number;
  saturation?: number;
  rampS?: number;
  holdS?: number;
  connectionReuse?: 'on' | 'off';
  arrivals?: 'even' | 'exponential';
  drainTimeoutS?: number;
  powerIdleW?: number;
  powerMaxW?: number;
  dashboard?: boolean;
  warmUp?: 'auto' | 'always' | 'never';
}

function calibrationScenario(v: string): CalibrationScenario {
  if (v !== 'r' && v !== 'original') throw new InvalidArgumentError('must be r or original');
  return v;
}

/** Adds the table's options, in this order (the help lists them so). */
function withOptions(cmd: Command, names: OptionName[]): Command {
  for (const n of names) cmd.addOption(opt(n));
  return cmd;
}

/** One test's options (run and matrix alike). */
function common(cmd: Command): Command {
  withOptions(
    cmd.addOption(opt('profile', { description: 'load profile from k6/profiles.json (paper|small|short|smoke; suites: load|soak|stress|spike and their -smoke/-short/-scaled variants)', default: 'small' })),
    ['runs', 'pauseS', 'tracing', 'kdfCost', 'cpuProf', 'raw', 'apdexTMs', 'peak'],
  )
    .addOption(opt('saturation', { description: 'soak: the saturation rate (it/s) it holds 70 % of (default: the newest results/*-<variant>-calibration.json)' }))
    .addOption(opt('rampS'))
    .addOption(opt('holdS'))
    .addOption(opt('connectionReuse'))
    .addOption(opt('arrivals'))
    .addOption(opt('drainTimeoutS'))
    .addOption(opt('powerIdleW', { description: `energy ESTIMATE model: watts per logical CPU idle (default ${DEFAULT_POWER_MODEL.idleWPerCpu})` }))
    .addOption(opt('powerMaxW', { description: `energy ESTIMATE model: watts per logical CPU at 100% (default ${DEFAULT_POWER_MODEL.maxWPerCpu})` }))
    .addOption(opt('dashboard'))
    .addOption(opt('warmUp', { default: 'auto' }));
  return addPlacementOptions(cmd);
}

function runOptions(variant: string, f: CommonFlags & { keepUp?: boolean; runId?: string }): RunOptions {
  return {
    variant,
    profile: f.profile,
    runs: f.runs,
    pauseS: f.pauseS,
    tracing: f.tracing,
    kdfCost: f.kdfCost,
    cpuProfile: f.cpuProf,
    raw: f.raw,
    apdexTMs: f.apdexTMs,
    keepUp: f.keepUp,
    runId: f.runId,
    peak: f.peak,
    saturation: f.saturation,
    rampS: f.rampS,
    holdS: f.holdS,
    connectionReuse: f.connectionReuse === undefined ? undefined : f.connectionReuse === 'on',
    arrivals: f.arrivals,
    drainTimeoutS: f.drainTimeoutS,
    powerModel: powerModel(f),
    dashboard: f.dashboard,
    placement: placementRequest(f),
    warmUp: f.warmUp,
  };
}

function powerModel(f: CommonFlags): PowerModel | undefined {
  if (f.powerIdleW === undefined && f.powerMaxW === undefined) return undefined;
  return {
    idleWPerCpu: f.powerIdleW ?? DEFAULT_POWER_MODEL.idleWPerCpu,
    maxWPerCpu: f.powerMaxW ?? DEFAULT_POWER_MODEL.maxWPerCpu,
    source: 'set on the command line (--power-idle-w / --power-max-w)',
  };
}

/** The whole command tree (exported for its unit spec, benchmarks/test/cli-front-door.spec.ts). */
export const program = new Command('bench').description('Paper 000 load-test harness: k6 scenario R, runner, matrix and Tables I–III; the queueing models, the findings, trace attribution and the storage micro-benchmark').showHelpAfterError('(add --help for usage)');

common(program.command('run').description('one test (R runs) of one variant -> results/<run-id>/'))
  .addOption(opt('variant', { mandatory: true }))
  .addOption(opt('keepUp'))
  .addOption(opt('runId'))
  .action(async (f: CommonFlags & { variant: string; keepUp?: boolean; runId?: string }) => {
    const a = await runTest(runOptions(f.variant, f));
    const report = buildReport([a.meta.runId], `${process.env.SG_RESULTS_DIR ?? 'results'}/${a.meta.runId}/report`);
    process.stdout.write(report.markdown + '\n');
    if (!a.valid) process.exitCode = 2;
  });

common(program.command('matrix').description('run several variants one after the other, then report them together'))
  .addOption(opt('variants', { description: 'the variant presets, comma-separated, run in this order' }))
  .argument('[presets...]', 'deprecated: the presets as arguments (use --variants)')
  .action(async (positional: string[], f: CommonFlags & { variants?: string[] }) => {
    if (positional.length) deprecatedArgument('matrix', 'naming the presets as arguments', `--variants ${positional.join(',')}`);
    const variants = [...(f.variants ?? []), ...positional];
    if (variants.length === 0) throw new InvalidArgumentError('bench matrix needs --variants <list>');
    const ids: string[] = [];
    let allValid = true;
    // The machine stays the matrix's between its variants.
    await exclusive(`bench matrix ${variants.join(' ')}`, async () => {
      for (const v of variants) {
        phase(`matrix: ${v} (${ids.length + 1}/${variants.length})`);
        const a = await runTest(runOptions(v, f));
        ids.push(a.meta.runId);
        allValid &&= a.valid;
      }
    });
    const report = buildReport(ids);
    process.stdout.write(report.markdown + '\n');
    phase(`report: ${report.markdownFile} and ${report.htmlFile}`);
    if (!allValid) process.exitCode = 2;
  });

program
  .command('calibrate')
  .description('step the peak on one variant until a step fails the SLO (SPS p95 <= 2 s, 0 KO, keeping up), then bisect (to an eighth of the first failing rate, at most 1 it/s): the sustainable rate')
  .addOption(opt('variant', { description: 'variant (the best one on this machine)', mandatory: true }))
  .option('--peaks <list>', 'comma-separated peaks (iterations/s) to try, ascending', '2,3,4,6,8')
  .option('--from-model <run-folder>', "place the peaks around the queueing model's predicted saturation rate (demands from this run folder)")
  .option('--factors <list>', `with --from-model: factors of the predicted rate to step through (default: ${MODEL_STEP_FACTORS.join(',')})`)
  .option('--scenario <r|original>', "whose client: r (scenario R, profile small) or original (the original ShellOnYou load test's: profile original, no retries, no warm-up, 10 s quiet before each step, judged by 0 KO of any request and SPS p95 <= 2 s)", calibrationScenario, 'r')
  .addOption(opt('rampS', { description: `ramp of each step (default ${SCENARIO_PROTOCOL.r.rampS}; original ${SCENARIO_PROTOCOL.original.rampS})` }))
  .addOption(opt('holdS', { description: `sustained stage of each step (default ${SCENARIO_PROTOCOL.r.holdS}; original ${SCENARIO_PROTOCOL.original.holdS})` }))
  .addOption(opt('kdfCost', { description: "override the spec's auth.kdfCost (1: the paper-faithful login cost, loopback only); the file is then <stamp>-<variant>-calibration-kdfN.json" }))
  .addOption(opt('placement', { description: 'k6 and the harness on cpusets apart from the system under test (default on: the findings read only a capacity measured so)' }))
  .addOption(opt('clientCpus'))
  .addOption(opt('sutCpus'))
  .action(async (f: { variant: string; peaks: string; fromModel?: string; factors?: string; scenario: CalibrationScenario; rampS?: number; holdS?: number; kdfCost?: number; placement?: 'on' | 'off'; clientCpus?: string; sutCpus?: string }) => {
    const predicted = f.fromModel ? predictSaturation(f.variant, f.fromModel) : undefined;
    const factors = f.factors ? f.factors.split(',').map((x) => positiveNumber(x)) : MODEL_STEP_FACTORS;
    const peaks = predicted ? peaksAround(predicted.rate, factors) : f.peaks.split(',').map((p) => positiveNumber(p));
    const result = await calibrate({ variant: f.variant, peaks, rampS: f.rampS, holdS: f.holdS, predicted, kdfCost: f.kdfCost, placement: placementRequest(f), scenario: f.scenario });
    process.stdout.write(calibrationMarkdown(result) + '\n');
  });

program
  .command('report')
  .description('Tables I–III (Markdown + HTML) from finished runs (default: the latest run of each variant)')
  .argument('[run-ids...]')
  .addOption(opt('out', { description: 'output folder (default: results/reports/<stamp>)' }))
  .action((ids: string[], f: { out?: string }) => {
    const report = buildReport(ids, f.out);
    process.stdout.write(report.markdown + '\n');
    phase(`report: ${report.markdownFile} and ${report.htmlFile}`);
  });

program
  .command('compare')
  .description('B − A per request type and metric with 95% intervals over VALID runs, flagged significant (text + HTML)')
  .argument('<a>', 'run id (results/<run-id>) or "<run-id>:1,3" for some of its runs')
  .argument('<b>', 'the same for the other side')
  .addOption(opt('out', { description: 'output folder (default: results/compare/<stamp>-<A>-vs-<B>)' }))
  .action((a: string, b: string, f: { out?: string }) => {
    const out = runComparison(a, b, f.out);
    process.stdout.write(out.markdown + '\n');
    phase(`compare: ${out.dir}/compare.{md,html,json}`);
  });

program
  .command('trend')
  .description("one preset's last tests over time (date, profile, host speed probe, throughput, SPS p50/p95/p99, KO share, CPU per iteration, validity); hosts of other speed flagged")
  .addOption(opt('variant', { description: 'variant preset whose tests (results/<stamp>-<preset>-<profile>) are read' }))
  .argument('[preset]', 'deprecated: the preset as an argument (use --variant)')
  .option('--last <n>', 'the newest n tests', positiveInt, DEFAULT_LAST)
  .addOption(opt('profile', { description: 'only the tests of this profile (default: every profile)' }))
  .option('--json', 'the trend as JSON (what the console serves) instead of Markdown')
  .action((positional: string | undefined, f: { variant?: string; last: number; profile?: string; json?: boolean }) => {
    if (positional) deprecatedArgument('trend', 'naming the preset as an argument', `--variant ${positional}`);
    const preset = f.variant ?? positional;
    if (!preset) throw new InvalidArgumentError('bench trend needs --variant <name>');
    const t = presetTrend(preset, { last: f.last, profile: f.profile });
    process.stdout.write((f.json ? JSON.stringify(t) : trendMarkdown(t)) + '\n');
  });

program
  .command('replay')
  .description('run a recorded test again (same spec and protocol) and say whether it agrees with the original within its intervals')
  .argument('<manifest>', 'results/<run-id>/manifest.json (or the run folder)')
  .addOption(opt('dryRun', { description: 'print what it would run and the drift since, run nothing' }))
  .action(async (manifest: string, f: { dryRun?: boolean }) => {
    const plan = await replayPlanFor(manifest);
    process.stdout.write(replayPlanText(plan) + '\n');
    if (f.dryRun) return;
    const r = await executeReplay(plan);
    process.stdout.write(`${r.comparison.markdown}\nreplay ${r.agreement.verdict}${r.agreement.differing.length ? `: ${r.agreement.differing.join(', ')} differ` : ''}${r.agreement.untestable.length ? ` (untestable: ${r.agreement.untestable.join(', ')})` : ''} — rule: ${r.agreement.rule}\n`);
    if (!r.valid || r.agreement.verdict !== 'agrees') process.exitCode = 2;
  });

interface SweepFlags {
  class: SweepClass[];
  profile: string;
  vus?: number[];
  holdS?: number;
  rampS?: number;
  productions: number;
}

function sweepFlags(cmd: Command): Command {
  return cmd
    .addOption(opt('class', { default: SWEEP_CLASSES }))
    .addOption(opt('profile', { description: "sweep profile from k6/profiles.json (sweep: the paper's 1..120 threads; sweep-scaled: this machine; sweep-smoke)", default: 'sweep-scaled' }))
    .addOption(opt('vus', { description: "threads per step, comma-separated (default: the profile's)" }))
    .addOption(opt('holdS', { description: "measured window of each step (default: the profile's)" }))
    .addOption(opt('rampS', { description: "ramp of each step (default: the profile's)" }))
    .addOption(opt('productions', { default: 2 }));
}

sweepFlags(program.command('sweep').description('paper 001: closed-model thread sweep of one variant over S1/S2 -> results/<run-id>/sweep.md'))
  .addOption(opt('variant', { description: 'variant preset', mandatory: true }))
  .addOption(opt('runId', { description: 'results folder name (default: <utc stamp>-<variant>-sweep)' }))
  .action(async (f: SweepFlags & { variant: string; runId?: string }) => {
    const r = await runSweep({ variant: f.variant, classes: f.class, profile: f.profile, runId: f.runId, vus: f.vus, holdS: f.holdS, rampS: f.rampS, productionsPerStatement: f.productions });
    process.stdout.write(r.markdown);
    if (r.results.some((x) => !x.analysis.valid)) process.exitCode = 2;
  });

sweepFlags(program.command('paper001').description('paper 001: {naked-mon, mon-redis, msa-1-2, msa-redis-1-2} x {S1, S2} sweeps, Tables 3-4 beside the paper\'s, curves in HTML'))
  .addOption(opt('variants', { description: 'a subset of the four presets, comma-separated' }))
  .action(async (f: SweepFlags & { variants?: string[] }) => {
    const r = await runPaper001({ classes: f.class, profile: f.profile, vus: f.vus, holdS: f.holdS, rampS: f.rampS, productionsPerStatement: f.productions, variants: f.variants });
    process.stdout.write(r.markdown);
    phase(`paper001: ${r.markdownFile} and ${r.htmlFile}`);
  });

program
  .command('mix')
  .description('paper 003: a pattern vs its baseline over request mixes p(r1) in {0, 0.2, ..., 1} -> results/<stamp>-mix-<pattern>-<profile>/mix.md and .html')
  .requiredOption('--pattern <name>', `gateway or dispatch pattern: ${MIX_PATTERNS.join(', ')}`)
  .addOption(opt('profile', { description: 'mix profile from k6/profiles.json (mix: 5 min per p as the paper; mix-scaled: this machine; mix-smoke)', default: 'mix-scaled' }))
  .option('--ps <list>', 'p(r1) values, comma-separated (default: the profile\'s)', (v: string) => v.split(',').map((x) => probability(x)))
  .addOption(opt('vus', { description: "users in the closed loop, one number: every p runs with it (default: the profile's)" }))
  .addOption(opt('holdS', { description: "measured window of each p (default: the profile's)" }))
  .action(async (f: { pattern: string; profile: string; ps?: number[]; vus?: number[]; holdS?: number }) => {
    if (f.vus && f.vus.length !== 1) throw new InvalidArgumentError(`bench mix runs every p with one number of users: --vus ${f.vus.join(',')} names ${f.vus.length}`);
    const r = await runMix({ pattern: f.pattern, profile: f.profile, ps: f.ps, vus: f.vus?.[0], holdS: f.holdS });
    process.stdout.write(readFileSync(r.markdownFile, 'utf8'));
    phase(`mix: ${r.markdownFile} and ${r.htmlFile}`);
    if (r.results.some((x) => x.problems.length > 0)) process.exitCode = 2;
  });

function probability(v: string): number {
  const p = Number(v);
  if (!(p >= 0 && p <= 1)) throw new InvalidArgumentError(`expected a probability in [0, 1], got "${v}"`);
  return p;
}

program
  .command('reanalyse')
  .description("a finished suite run's steps and verdicts recomputed with today's rules from its request lines -> <run-folder>/suite-reanalysis.json")
  .argument('<run-folder>', 'results/<run-id> of a load, stress, spike or soak run')
  .action(async (dir: string) => {
    const out = await reanalyseSuiteRuns(dir);
    for (const r of out.runs) process.stdout.write(`run ${r.run}: ${suiteLine(r)}\n`);
    phase(`reanalysed: ${join(dir, 'suite-reanalysis.json')}`);
  });

program
  .command('main')
  .description("README's main job: the default variant, a short profile once, traced; the tables, the trace breakdown and the CPU split per process group printed")
  .addOption(opt('variant', { default: 'naked-mon' }))
  .addOption(opt('profile', { default: 'short' }))
  .action(async (f: { variant: string; profile: string }) => {
    const m = await mainJob(f);
    process.stdout.write(m.markdown + '\n');
    if (!m.aggregated.valid) process.exitCode = 2;
  });

registerFaultsCommand(program);
registerModelsCommand(program);
registerFindingsCommand(program);
registerReproduceCommand(program);
registerTracesCommand(program);
registerStorageGrowthCommand(program);
registerBackToBackCommand(program);
registerPgStatementsCommand(program);
registerGraderCommand(program);
registerPasswordHashCommand(program);
registerLoginCpuCommand(program);

if (require.main === module) {
  program.parseAsync(process.argv).catch((err: unknown) => {
    // A command's own exit (traces: usage errors exit 2, help 0): commander already said why.
    if (err instanceof CommanderError) process.exit(err.exitCode);
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
