/**
 * Grader-only baseline: gradings per second of the paper-equivalent exercise with no HTTP,
 * database or queue — the physical limit every variant's SPS throughput is compared with.
 * Each row runs `concurrency` back-to-back loops for a fixed duration (bounded by a count).
 */
import { cpus, loadavg } from 'node:os';
import { mean, quantile } from 'simple-statistics';
import type { Grader, GradingJob } from '@shellgrade/domain';
import {
  asyncJobRunner,
  blockingJobRunner,
  getCatalogExercise,
  loadSamples,
  PAPER_SLUG,
  SandboxGrader,
  warmPoolJobRunner,
  zygoteJobRunner,
  type ExecMode,
  type GraderOptions,
  type Isolation,
  type JobRunnerFactory,
} from '@shellgrade/grading';

/** Each row's runner, as the services' wiring picks it (libs/wiring/src/adapters.ts graderExec): the grader alone, without the wiring's adapters. */
const RUNNERS: Record<ExecMode, JobRunnerFactory> = { async: asyncJobRunner, blocking: blockingJobRunner, pool: warmPoolJobRunner, zygote: zygoteJobRunner };

export interface BaselineRowSpec {
  exec: ExecMode;
  isolation: Isolation;
  concurrency: number;
}

export interface BaselineRow extends BaselineRowSpec {
  /** "async bwrap": exec and isolation together, for report labels. */
  mode: string;
  gradings: number;
  failures: number;
  elapsedS: number;
  gradingsPerS: number;
  /** Mean wall time of one grading as seen by its caller. */
  msPerGrading: number;
  p50Ms: number;
  p95Ms: number;
  /** 1-minute load average when the row ended (other work on the machine skews wall times). */
  loadAvg1: number;
}

export interface BaselineReport {
  createdAt: string;
  exercise: string;
  archiveBytes: number;
  durationPerRowS: number;
  machine: { cpus: number; cpuModel: string; node: string };
  rows: BaselineRow[];
}

export const DEFAULT_BASELINE_ROWS: BaselineRowSpec[] = [
  { exec: 'async', isolation: 'bwrap', concurrency: 1 },
  { exec: 'async', isolation: 'bwrap', concurrency: 2 },
  { exec: 'blocking', isolation: 'bwrap', concurrency: 1 },
  { exec: 'blocking', isolation: 'bwrap', concurrency: 2 },
  { exec: 'pool', isolation: 'bwrap', concurrency: 1 },
  { exec: 'pool', isolation: 'bwrap', concurrency: 2 },
  { exec: 'zygote', isolation: 'bwrap', concurrency: 1 },
  { exec: 'zygote', isolation: 'bwrap', concurrency: 2 },
  { exec: 'async', isolation: 'none', concurrency: 1 },
  { exec: 'async', isolation: 'none', concurrency: 2 },
];

export interface BaselineOptions {
  /** Everything but what each row sets: exec, isolation, and its concurrency (warm pool size and grading slots). */
  base: Omit<GraderOptions, 'isolation' | 'poolSize' | 'maxConcurrent'>;
  rows?: BaselineRowSpec[];
  durationPerRowMs?: number;
  /** Upper bound per row whatever the duration. */
  maxGradingsPerRow?: number;
  warmup?: number;
  onRow?: (row: BaselineRow) => void;
}

export async function runGraderBaseline(opts: BaselineOptions): Promise<BaselineReport> {
  const durationMs = opts.durationPerRowMs ?? 2000;
  const job = paperJob();
  const rows: BaselineRow[] = [];
  for (const spec of opts.rows ?? DEFAULT_BASELINE_ROWS) {
    const grader = new SandboxGrader({ ...opts.base, isolation: spec.isolation, poolSize: spec.concurrency, maxConcurrent: spec.concurrency }, RUNNERS[spec.exec]);
    let row: BaselineRow;
    try {
      for (let i = 0; i < (opts.warmup ?? 3); i++) await grader.grade(job);
      row = await measureRow(grader, job, spec, durationMs, opts.maxGradingsPerRow ?? 5000);
    } finally {
      await grader.close();
    }
    opts.onRow?.(row);
    rows.push(row);
  }
  const cpu = cpus();
  return {
    createdAt: new Date().toISOString(),
    exercise: PAPER_SLUG,
    archiveBytes: job.submission.length,
    durationPerRowS: durationMs / 1000,
    machine: { cpus: cpu.length, cpuModel: cpu[0]?.model ?? 'unknown', node: process.version },
    rows,
  };
}

function paperJob(): GradingJob {
  const ex = getCatalogExercise(PAPER_SLUG);
  return {
    exerciseId: 0,
    graderScript: ex.graderScript,
    statementHtml: ex.statementHtml,
    questionArchive: ex.questionArchive,
    submission: loadSamples(PAPER_SLUG).good,
    locale: ex.locale,
  };
}

async function measureRow(grader: Grader, job: GradingJob, spec: BaselineRowSpec, durationMs: number, maxGradings: number): Promise<BaselineRow> {
  const latencies: number[] = [];
  let failures = 0;
  let started = 0;
  const t0 = performance.now();
  const deadline = t0 + durationMs;
  const loop = async () => {
    while (performance.now() < deadline && started < maxGradings) {
      started++;
      const s = performance.now();
      try {
        const r = await grader.grade(job);
        if (r.grade !== 100) failures++;
      } catch {
        failures++;
      }
      latencies.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, loop));
  const elapsedS = (performance.now() - t0) / 1000;
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    ...spec,
    mode: `${spec.exec} ${spec.isolation}`,
    gradings: latencies.length,
    failures,
    elapsedS: round(elapsedS),
    gradingsPerS: round(latencies.length / elapsedS),
    msPerGrading: round(mean(latencies)),
    p50Ms: round(quantile(latencies, 0.5)),
    p95Ms: round(quantile(latencies, 0.95)),
    loadAvg1: round(loadavg()[0]),
  };
}

export function formatBaselineTable(rows: BaselineRow[]): string {
  const head = ['exec', 'isolation', 'conc', 'gradings', 'fail', 'gradings/s', 'ms/grading', 'p50 ms', 'p95 ms', 'load'];
  const body = rows.map((r) =>
    [r.exec, r.isolation, r.concurrency, r.gradings, r.failures, r.gradingsPerS, r.msPerGrading, r.p50Ms, r.p95Ms, r.loadAvg1].map(String),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  return [fmt(head), fmt(widths.map((w) => '-'.repeat(w))), ...body.map(fmt)].join('\n');
}
