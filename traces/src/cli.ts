/**
 * npm run bench -- traces attribute --run <run-id> | --from <iso> --to <iso> [--service s]... [--jaeger url] [--out dir]
 * npm run bench -- traces overhead --on <run-id> --off <run-id>
 * npm run bench -- traces <run-id>          (= attribute --run <run-id>)
 * `npm run traces -- ...` is the same command (this file run on its own: the same registration).
 * Usage errors exit 2 (as before the commander rewrite), other failures 1.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { loadConnections } from '@shellgrade/variant';
import { attribute } from './analyze';
import { dominantComponents } from './report/markdown';
import { formatOverhead, overheadFromRuns } from './overhead';
import { repoRoot, runDir, runWindow } from './run-files';

const USAGE_EXIT = 2;

interface AttributeFlags {
  run?: string;
  from?: string;
  to?: string;
  service?: string[];
  jaeger?: string;
  out?: string;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function parseTime(cmd: Command, label: string, value: string | undefined): number {
  const t = Date.parse(value ?? '');
  if (!Number.isFinite(t)) cmd.error(`--${label} must be an ISO date-time, got "${value ?? ''}"`, { exitCode: USAGE_EXIT, code: 'traces.usage' });
  return t;
}

async function attributeAction(values: AttributeFlags, cmd: Command): Promise<void> {
  let fromMs: number;
  let toMs: number;
  let variant: string | undefined;
  if (values.from || values.to) {
    fromMs = parseTime(cmd, 'from', values.from);
    toMs = parseTime(cmd, 'to', values.to);
  } else if (values.run) {
    ({ fromMs, toMs, variant } = runWindow(values.run));
  } else {
    return cmd.error('attribute needs --run <run-id> or --from/--to', { exitCode: USAGE_EXIT, code: 'traces.usage' });
  }
  if (toMs <= fromMs) cmd.error('--to must be after --from', { exitCode: USAGE_EXIT, code: 'traces.usage' });
  const outDir = values.out ?? (values.run ? runDir(values.run) : join(repoRoot(), 'results', `traces-${new Date(fromMs).toISOString().replace(/[:.]/g, '-')}`));
  const file = await attribute({
    runId: values.run ?? null,
    fromMs,
    toMs,
    jaegerUrl: values.jaeger ?? loadConnections().JAEGER_QUERY_URL,
    services: values.service,
    outDir,
    fallbackVariant: variant,
  });
  for (const v of file.variants) {
    console.log(
      `${v.variant}: ${v.requests} SPS, median ${v.totalMs.median.toFixed(1)} ms, p95 ${v.totalMs.p95.toFixed(1)} ms, ` +
        `coverage ${(100 * v.coverageMedian).toFixed(1)}% of median — ${dominantComponents(v).join(', ')}`,
    );
  }
  console.log(`wrote ${join(outDir, 'breakdown.json')}, breakdown.md, breakdown.html`);
}

function overheadAction(values: { on: string; off: string }): void {
  const report = overheadFromRuns(values.on, values.off);
  // Next to the traced run's results, for the benchmark report.
  const file = join(runDir(values.on), 'overhead.json');
  writeFileSync(file, `${JSON.stringify({ schema: 'shellgrade.trace-overhead/1', ...report }, null, 2)}\n`);
  console.log(formatOverhead(report));
  console.log(`wrote ${file}`);
}

/** Usage errors (unknown option, missing argument...) exit 2 as the hand-parsed CLI did; help and version 0. */
function usageExit(err: CommanderError): never {
  throw err.exitCode === 1 ? new CommanderError(USAGE_EXIT, err.code, err.message) : err;
}

/**
 * The `traces` command and its subcommands, defined on `program` (a fresh Command or a parent's
 * `command('traces')`). `traces <run-id> [flags]` is short for `traces attribute --run <run-id> [flags]`
 * (as the bench report suggests): the flags are attribute's, parsed by attribute itself.
 */
export function defineTracesCommand(program: Command): Command {
  program
    .description('latency attribution from Jaeger traces along the critical path (breakdown.{json,md,html}) and the tracing overhead; `traces <run-id>` = `traces attribute --run <run-id>`')
    .showHelpAfterError('(add --help for usage)');
  const attributeCmd = program
    .command('attribute')
    .description("per-request latency attribution of a run's window (or any window) -> breakdown.{json,md,html} in the run folder (or --out)")
    .option('--run <run-id>', 'a results/<run-id> folder: its window and variant (aggregated.json or meta.json)')
    .option('--from <iso>', 'window start, ISO date-time (with --to, instead of --run)')
    .option('--to <iso>', 'window end, ISO date-time')
    .option('--service <name>', 'root service to search, repeatable (shellgrade-gateway|shellgrade-monolith; default: both)', collect)
    // Read when attribute runs, not when the command is defined (the front door defines it for every bench command).
    .option('--jaeger <url>', 'Jaeger query URL (default: $JAEGER_QUERY_URL, else http://127.0.0.1:16686)')
    .option('--out <dir>', "output folder (default: the run folder, else results/traces-<from>)")
    .action((values: AttributeFlags, cmd: Command) => attributeAction(values, cmd));
  program
    .command('overhead')
    .description('tracing overhead: SPS throughput and p95 of the same variant benchmarked with --tracing on and off -> results/<on>/overhead.json')
    .requiredOption('--on <run-id>', 'the run with --tracing on')
    .requiredOption('--off <run-id>', 'the run with --tracing off')
    .action((values: { on: string; off: string }) => overheadAction(values));
  program
    .argument('[run-id]', 'short for: attribute --run <run-id> (a folder under results/)')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (runId: string | undefined, _f: unknown, cmd: Command) => {
      if (!runId) return cmd.error('missing command', { exitCode: USAGE_EXIT, code: 'traces.usage' });
      if (runId.startsWith('-')) return cmd.error(`error: unknown option '${runId}'`, { exitCode: USAGE_EXIT, code: 'commander.unknownOption' });
      if (!/^[\w.-]+$/.test(runId) || !existsSync(runDir(runId))) return cmd.error(`unknown command "${runId}"`, { exitCode: USAGE_EXIT, code: 'traces.usage' });
      await attributeCmd.parseAsync(['--run', runId, ...cmd.args.slice(1)], { from: 'user' });
    });
  for (const c of [program, ...program.commands]) c.exitOverride(usageExit);
  return program;
}

/** `bench traces ...`: the command registered on the front door (benchmarks/src/cli.ts). */
export const registerTracesCommand = (parent: Command): Command => defineTracesCommand(parent.command('traces'));

if (require.main === module) {
  defineTracesCommand(new Command('traces'))
    .parseAsync(process.argv)
    .catch((error: unknown) => {
      if (error instanceof CommanderError) process.exit(error.exitCode);
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
