// `npm run bench -- faults ...`: the subcommand's flags (registered by cli.ts).
import { Command, InvalidArgumentError } from 'commander';
import { opt, positiveNumber as positive } from '../options';
import { resultsDir } from '../paths';
import { allFaults, faultListText } from './catalog';
import { reattribute } from './reattribute';
import { readFaultRuns, writeResilienceReport } from './resilience';
import { runFaults } from './run-faults';

function share(v: string): number {
  const n = Number(v);
  if (!(n > 0 && n <= 1)) throw new InvalidArgumentError(`"${v}" must be a share in (0, 1]`);
  return n;
}

interface FaultsFlags {
  variant?: string;
  faults?: string;
  list?: boolean;
  rate?: number;
  share: number;
  saturation?: number;
  steadyS: number;
  faultS: number;
  recoveryS: number;
  rampS: number;
  bucketS: number;
  profile: string;
  drainTimeoutS?: number;
}

export function registerFaultsCommand(program: Command): void {
  program
    .command('faults')
    .description('one fault per run in a fixed window of steady scenario-R load: RAC/EFR/KO causes before, during, after; time to first error and to recovery; the zero-loss audit -> results/<stamp>-<variant>-faults/faults.{md,json}')
    .addOption(opt('variant', { description: 'variant preset (native, under pm2)' }))
    .option('--faults <list>', 'comma-separated fault names, <kind>:<role|server|hop> (see --list), or all: every one the variant has a target for')
    .option('--list', 'print the fault table and exit')
    .addOption(opt('rate', { description: 'steady rate (iterations/s); default: --share of the sustainable rate' }))
    .option('--share <x>', 'share of the sustainable rate (--saturation, else the newest bench calibrate of the variant)', share, 0.6)
    .addOption(opt('saturation', { description: 'the sustainable rate the share is taken of' }))
    .option('--steady-s <s>', 'steady load before the fault (after the ramp)', positive, 30)
    .option('--fault-s <s>', 'the fault window', positive, 20)
    .option('--recovery-s <s>', 'the window after the undo in which recovery is looked for', positive, 60)
    .addOption(opt('rampS', { description: 'ramp to the rate before the steady window', default: 5 }))
    .option('--bucket-s <s>', 'bucket of the recovery series (p95 and KO per bucket)', positive, 5)
    .addOption(opt('profile', { description: 'k6 profile the protocol comes from (pauses, students; its peak/ramp/hold are replaced)', default: 'short' }))
    .addOption(opt('drainTimeoutS', { description: 'upper bound of the post-run drain before the audit' }))
    .action(async (f: FaultsFlags) => {
      if (f.list) {
        process.stdout.write(faultListText() + '\n');
        return;
      }
      if (!f.variant || !f.faults) throw new InvalidArgumentError('--variant and --faults are required (or --list)');
      const named = f.faults.split(',').map((x) => x.trim()).filter(Boolean);
      const r = await runFaults({ ...f, variant: f.variant, faults: named.length === 1 && named[0] === 'all' ? allFaults() : named });
      for (const s of r.skipped) process.stdout.write(`skipped ${s}\n`);
      const bad = r.results.filter((x) => x.lost !== 0 || x.duplicated !== 0 || x.crashes.some((c) => !c.injected));
      if (bad.length) process.exitCode = 2;
    });
  program
    .command('faults-reattribute <dirs...>')
    .description("judge the latency faults of recorded faults folders again from Jaeger with today's attribution (while Jaeger still holds their traces); rewrites their faults.json/.md")
    .action(async (dirs: string[]) => {
      for (const dir of dirs) {
        const { results, share, kept } = await reattribute(dir);
        for (const k of kept) process.stdout.write(`${k}\n`);
        for (const r of results.filter((x) => x.attribution !== undefined)) {
          process.stdout.write(`${r.runId}: ${r.attribution ? (r.attribution.named ? 'named' : `NOT named (p50 ${r.attribution.p50.largest}, p95 ${r.attribution.p95.largest})`) : `no verdict: ${r.attributionError}`}\n`);
        }
        process.stdout.write(`${dir}: ${share.named} of ${share.of} named\n`);
      }
    });
  program
    .command('faults-table [dirs...]')
    .description('the resilience table across presets from bench faults runs (rows = faults, columns = variants; cells: lost, EFR during, recovery) -> resilience.{md,html}')
    .addOption(opt('variants', { description: 'columns, in this order (default: every variant found)' }))
    .addOption(opt('out', { description: 'where resilience.md/.html go (default: the results folder)' }))
    .action((dirs: string[], f: { variants?: string[]; out?: string }) => {
      const runs = readFaultRuns(dirs.length ? dirs : [resultsDir()]);
      if (runs.length === 0) throw new InvalidArgumentError(`no faults.json under ${dirs.join(', ') || resultsDir()}`);
      const out = writeResilienceReport(f.out ?? resultsDir(), runs, f.variants);
      process.stdout.write(`${out.markdown}\n${out.html}\n`);
    });
}
