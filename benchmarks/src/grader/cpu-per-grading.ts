/**
 * `bench grader cpu`: CPU per grading of each exec mode — this process and every process it
 * starts, counted by a cpuacct control group of its own (a zygote killed at close is never reaped
 * by its sandbox, so the children's rusage would miss it; the grading groups use other
 * controllers) — for a short and a long run of the grader-only loop: their difference over the
 * extra gradings leaves out the start-up (workers, warm-up). Writes <out>/<timestamp>.json.
 * Root and cgroup v1's cpuacct controller.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExecMode } from '@shellgrade/grading';
import { measureMachineSpeed } from '../machine-speed';
import { runGraderBaseline } from './baseline-runner';
import { graderBase, graderResultsDir } from './grader-base';

const CPUACCT = '/sys/fs/cgroup/cpuacct';

export interface CpuPerGradingRow {
  exec: ExecMode;
  concurrency: number;
  gradings: number;
  msPerGrading: number;
  nodeMsPerGrading: number;
  failures: number;
}

/**
 * Runs `work` with this process in a cpuacct group of its own (what it spawns inherits it), given
 * that group's CPU seconds so far; the process is moved back and the group removed afterwards.
 */
export async function inCpuacctGroup<T>(work: (cpuSeconds: () => number) => Promise<T>): Promise<T> {
  if (!existsSync(join(CPUACCT, 'cgroup.procs'))) throw new Error(`no cgroup v1 cpuacct controller at ${CPUACCT}: bench grader cpu counts a grading's processes there (root, cgroup v1)`);
  const group = join(CPUACCT, `sg-grader-cpu-${process.pid}`);
  mkdirSync(group);
  writeFileSync(join(group, 'cgroup.procs'), String(process.pid));
  try {
    return await work(() => Number(readFileSync(join(group, 'cpuacct.usage'), 'utf8')) / 1e9);
  } finally {
    writeFileSync(join(CPUACCT, 'cgroup.procs'), String(process.pid));
    try {
      rmdirSync(group);
    } catch {
      // A sandbox process still exiting keeps it a moment: an empty group left behind is harmless.
    }
  }
}

async function cpuOf(cpuSeconds: () => number, exec: ExecMode, concurrency: number, gradings: number): Promise<{ cpuS: number; nodeS: number; failures: number }> {
  const before = cpuSeconds();
  const node = process.cpuUsage();
  const report = await runGraderBaseline({
    base: graderBase('cpu'),
    rows: [{ exec, isolation: 'bwrap', concurrency }],
    durationPerRowMs: 600_000,
    maxGradingsPerRow: gradings,
  });
  const { user, system } = process.cpuUsage(node);
  return { cpuS: cpuSeconds() - before, nodeS: (user + system) / 1e6, failures: report.rows[0].failures };
}

export async function cpuPerGrading(o: { modes: ExecMode[]; concurrency: number; gradings: number; out?: string }): Promise<CpuPerGradingRow[]> {
  const { modes, concurrency, gradings } = o;
  const short = Math.max(10, Math.round(gradings / 5));
  // The host's speed before and after (hosts of one kind differ up to 2×; a probe may meet passing load).
  const speedBefore = measureMachineSpeed();
  const rows = await inCpuacctGroup(async (cpuSeconds) => {
    const rows: CpuPerGradingRow[] = [];
    for (const exec of modes) {
      const a = await cpuOf(cpuSeconds, exec, concurrency, short);
      const b = await cpuOf(cpuSeconds, exec, concurrency, gradings);
      const perGrading = (x: number, y: number) => Number((((y - x) / (gradings - short)) * 1000).toFixed(2));
      const row = { exec, concurrency, gradings: gradings - short, msPerGrading: perGrading(a.cpuS, b.cpuS), nodeMsPerGrading: perGrading(a.nodeS, b.nodeS), failures: a.failures + b.failures };
      rows.push(row);
      // back-to-back reads these lines (its report.ts parseGraderOutput): keep their shape.
      console.log(`${exec} x${concurrency}: ${row.msPerGrading} CPU ms per grading, of which the service (Node) ${row.nodeMsPerGrading} (${row.gradings} gradings, ${row.failures} failed)`);
    }
    return rows;
  });
  const speedAfter = measureMachineSpeed();
  console.log(`speed probe: scrypt 2^14 ${speedBefore.scryptN14Ms} ms before, ${speedAfter.scryptN14Ms} ms after`);
  const outDir = resolve(o.out ?? join(graderResultsDir(), 'grader-cpu'));
  mkdirSync(outDir, { recursive: true });
  const createdAt = new Date().toISOString();
  const file = join(outDir, `${createdAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ createdAt, machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, speedBefore, speedAfter }, rows }, null, 2) + '\n');
  console.log(`written ${file}`);
  return rows;
}
