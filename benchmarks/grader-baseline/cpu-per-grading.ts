/**
 * CPU per grading of one exec mode (issue 31): this process and every process it starts, from the
 * cpuacct control group cpu.sh puts it in (a zygote killed at close is never reaped by its
 * sandbox, so the children's rusage would miss it; the grading groups use other controllers), for
 * a short and a long run of the grader baseline loop; their difference over the extra gradings
 * leaves out the start-up (workers, warm-up). Writes results/grader-cpu/<timestamp>.json.
 *   bash benchmarks/grader-baseline/cpu.sh [--modes zygote,async] [--concurrency 1] [--gradings 300]
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { archiveBoundsOf, graderSchema, httpSchema, loadConnections } from '@shellgrade/variant';
import { gradingLibDir, type ExecMode } from '@shellgrade/grading';
// The loop of the grader baseline itself, compiled on its own (benchmarks/grader-baseline/tsconfig.json).
import { runGraderBaseline } from './grader-baseline-runner';
import { measureMachineSpeed } from '../src/machine-speed';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** CPU seconds used so far by this process's cpuacct group (cgroup v1), its descendants included. */
function cpuSeconds(): number {
  const line = readFileSync('/proc/self/cgroup', 'utf8').split('\n').find((l) => l.split(':')[1]?.split(',').includes('cpuacct'));
  const path = line?.split(':')[2];
  if (!path || path === '/') throw new Error('not in a cpuacct control group of its own: run through benchmarks/grader-baseline/cpu.sh (root, cgroup v1 cpuacct)');
  return Number(readFileSync(join('/sys/fs/cgroup/cpuacct', path, 'cpuacct.usage'), 'utf8')) / 1e9;
}

async function cpuOf(exec: ExecMode, concurrency: number, gradings: number): Promise<{ cpuS: number; nodeS: number; failures: number }> {
  const cfg = loadConnections();
  const { timeoutMs, limits, cgroups, maxOutputBytes, archive } = graderSchema.parse({});
  const { maxArchiveBytes } = httpSchema.parse({});
  const before = cpuSeconds();
  const node = process.cpuUsage();
  const report = await runGraderBaseline({
    base: { python: cfg.SG_PYTHON, sandboxRoot: join(cfg.SG_SANDBOX_ROOT, 'cpu'), timeoutMs, limits, cgroups, maxOutputBytes, archive: archiveBoundsOf({ http: { maxArchiveBytes }, grader: { archive } }) },
    rows: [{ exec, isolation: 'bwrap', concurrency }],
    durationPerRowMs: 600_000,
    maxGradingsPerRow: gradings,
  });
  const { user, system } = process.cpuUsage(node);
  return { cpuS: cpuSeconds() - before, nodeS: (user + system) / 1e6, failures: report.rows[0].failures };
}

async function main(): Promise<void> {
  const modes = (arg('--modes') ?? 'zygote').split(',') as ExecMode[];
  const concurrency = Number(arg('--concurrency') ?? 1);
  const gradings = Number(arg('--gradings') ?? 300);
  const short = Math.max(10, Math.round(gradings / 5));
  // The host's speed before and after (hosts of one kind differ up to 2×; a probe may meet passing load).
  const speedBefore = measureMachineSpeed();
  const rows = [];
  for (const exec of modes) {
    const a = await cpuOf(exec, concurrency, short);
    const b = await cpuOf(exec, concurrency, gradings);
    const perGrading = (x: number, y: number) => Number((((y - x) / (gradings - short)) * 1000).toFixed(2));
    const msPerGrading = perGrading(a.cpuS, b.cpuS);
    const nodeMsPerGrading = perGrading(a.nodeS, b.nodeS);
    rows.push({ exec, concurrency, gradings: gradings - short, msPerGrading, nodeMsPerGrading, failures: a.failures + b.failures });
    console.log(`${exec} x${concurrency}: ${msPerGrading} CPU ms per grading, of which the service (Node) ${nodeMsPerGrading} (${gradings - short} gradings, ${a.failures + b.failures} failed)`);
  }
  const speedAfter = measureMachineSpeed();
  console.log(`speed probe: scrypt 2^14 ${speedBefore.scryptN14Ms} ms before, ${speedAfter.scryptN14Ms} ms after`);
  const resultsDir = process.env.SG_RESULTS_DIR ?? join(gradingLibDir(), '..', '..', 'results');
  const outDir = resolve(arg('--out') ?? join(resultsDir, 'grader-cpu'));
  mkdirSync(outDir, { recursive: true });
  const createdAt = new Date().toISOString();
  const file = join(outDir, `${createdAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ createdAt, machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, speedBefore, speedAfter }, rows }, null, 2) + '\n');
  console.log(`written ${file}`);
  if (rows.some((r) => r.failures > 0)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
