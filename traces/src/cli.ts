/**
 * npm run traces -- attribute --run <run-id> | --from <iso> --to <iso> [--service s]... [--jaeger url] [--out dir]
 * npm run traces -- overhead --on <run-id> --off <run-id>
 * npm run traces -- <run-id>          (= attribute --run <run-id>)
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConnections } from '@shellgrade/variant';
import { attribute } from './analyze';
import { dominantComponents } from './report/markdown';
import { formatOverhead, overheadFromRuns } from './overhead';
import { repoRoot, runDir, runWindow } from './run-files';

const USAGE = `usage:
  traces attribute --run <run-id> | --from <iso> --to <iso> [--service shellgrade-gateway|shellgrade-monolith]... [--jaeger http://127.0.0.1:16686] [--out <dir>]
  traces overhead --on <run-id> --off <run-id>
  traces <run-id>                      same as: attribute --run <run-id>`;

class UsageError extends Error {}

function parseTime(label: string, value: string | undefined): number {
  const t = Date.parse(value ?? '');
  if (!Number.isFinite(t)) throw new UsageError(`--${label} must be an ISO date-time, got "${value ?? ''}"`);
  return t;
}

async function attributeCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      run: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      service: { type: 'string', multiple: true },
      jaeger: { type: 'string', default: loadConnections().JAEGER_QUERY_URL },
      out: { type: 'string' },
    },
  });
  let fromMs: number;
  let toMs: number;
  let variant: string | undefined;
  if (values.from || values.to) {
    fromMs = parseTime('from', values.from);
    toMs = parseTime('to', values.to);
  } else if (values.run) {
    ({ fromMs, toMs, variant } = runWindow(values.run));
  } else {
    throw new UsageError('attribute needs --run <run-id> or --from/--to');
  }
  if (toMs <= fromMs) throw new UsageError('--to must be after --from');
  const outDir = values.out ?? (values.run ? runDir(values.run) : join(repoRoot(), 'results', `traces-${new Date(fromMs).toISOString().replace(/[:.]/g, '-')}`));
  const file = await attribute({
    runId: values.run ?? null,
    fromMs,
    toMs,
    jaegerUrl: values.jaeger,
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

function overheadCommand(args: string[]): void {
  const { values } = parseArgs({ args, options: { on: { type: 'string' }, off: { type: 'string' } } });
  if (!values.on || !values.off) throw new UsageError('overhead needs --on <run-id> and --off <run-id>');
  const report = overheadFromRuns(values.on, values.off);
  // Next to the traced run's results, for the benchmark report.
  const file = join(runDir(values.on), 'overhead.json');
  writeFileSync(file, `${JSON.stringify({ schema: 'shellgrade.trace-overhead/1', ...report }, null, 2)}\n`);
  console.log(formatOverhead(report));
  console.log(`wrote ${file}`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'attribute') return attributeCommand(rest);
  // `traces <run-id>` is short for `traces attribute --run <run-id>` (as the bench report suggests).
  if (command && /^[\w.-]+$/.test(command) && !command.startsWith('-') && existsSync(runDir(command))) return attributeCommand(['--run', command, ...rest]);
  if (command === 'overhead') return overheadCommand(rest);
  throw new UsageError(command ? `unknown command "${command}"` : 'missing command');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
