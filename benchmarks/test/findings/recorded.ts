// Recorded results for the findings evaluation: one finished test folder per quick-plan variant,
// 3 runs each with ±3% run-to-run noise, figures chosen so each verdict rule has a known answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSide, type Side } from '../../src/compare/sides';
import { LEVELS } from '../../src/findings/loads';
import { runRecord, writeTestFolder } from '../compare/run-fixtures';

interface CellFigures {
  p95: number;
  /** Apdex (the paper's performance aggregate); noise as p95's. */
  apdex: number;
  efr: number;
  cpuS: number;
  memMiB: number;
  energyWh: number;
  /** Relative run-to-run noise of p95 (default 3%). */
  p95Noise?: number;
  /** Relative run-to-run noise of Apdex (default 3%). */
  apdexNoise?: number;
  replicas: Record<string, number>;
}

const NOISE = [0, 1, -1];

/** The plan the recorded figures were made for: the 2 × 2 and one replicated configuration per architecture, at 0.5× and the paper level (the quick plan before it was cut to the 2 × 2). */
export const RECORDED_ROLES = {
  'mon-blocking': 'naked-mon',
  'mon-async': 'naked-mon-async',
  'msa-blocking': 'msa-1-1',
  'msa-async': 'msa-1-1-async',
  'mon-replicated': 'mon-x2',
  'msa-replicated': 'msa-1-2',
} as const;

export const FIGURES: Record<string, CellFigures> = {
  // (i): MSA faster and fewer failures than Naked MON; (v), (vii): MSA more CPU and energy.
  'naked-mon': { p95: 1500, apdex: 0.5, efr: 0.3, cpuS: 9, memMiB: 300, energyWh: 0.08, replicas: { monolith: 1 } },
  'naked-mon-async': { p95: 400, apdex: 0.8, efr: 0.05, cpuS: 8, memMiB: 300, energyWh: 0.07, replicas: { monolith: 1 } },
  'msa-1-1': { p95: 700, apdex: 0.7, efr: 0.1, cpuS: 12, memMiB: 420, energyWh: 0.1, replicas: { gateway: 1, leftover: 1, exercise: 1 } },
  'msa-1-1-async': { p95: 300, apdex: 0.85, efr: 0.04, cpuS: 11, memMiB: 420, energyWh: 0.095, replicas: { gateway: 1, leftover: 1, exercise: 1 } },
  // (ii) refuted: the replicated monolith is slower than Naked MON on 2 cores.
  'mon-x2': { p95: 1700, apdex: 0.45, efr: 0.31, cpuS: 10, memMiB: 560, energyWh: 0.09, replicas: { monolith: 2 } },
  // RQ2 inconclusive: msa-1-2's latency is so noisy that Apdex 0.74 vs 0.7 (p95 650 vs 700 ms) cannot be told apart.
  'msa-1-2': { p95: 650, apdex: 0.74, efr: 0.1, cpuS: 12, memMiB: 480, energyWh: 0.1, p95Noise: 0.4, apdexNoise: 0.1, replicas: { gateway: 1, leftover: 1, exercise: 2 } },
};

/** msa-1-1 was traced: traces/ wrote its per-variant shares of the p50 and p99 SPS latency. */
const TRACED = {
  variants: [
    {
      variant: 'msa-1-1',
      requests: 10,
      shares: {
        p50: { quantile: 0.5, latencyMs: 100, requests: 2, shares: [['exercise', 0.6], ['database', 0.3], ['gateway', 0.1]] },
        p99: { quantile: 0.99, latencyMs: 2000, requests: 1, exemplarTraceId: '4bf92f3577b34da6a3ce929d0e0e4736', shares: [['grading.process', 0.65], ['broker.queue_wait', 0.24], ['broker.consume', 0.095], ['exercise', 0.01]] },
      },
    },
  ],
};

export function writeRecordedResults(root: string): Record<string, Side> {
  const cells: Record<string, Side> = {};
  for (const [variant, f] of Object.entries(FIGURES)) {
    const runId = `20261125T030000Z-${variant}-small`;
    const records = NOISE.map((n, i) =>
      runRecord(i + 1, {
        cpuS: f.cpuS * (1 + 0.03 * n),
        memMiB: f.memMiB * (1 + 0.03 * n),
        energyWh: f.energyWh * (1 + 0.03 * n),
        paper: { p95: f.p95 * (1 + (f.p95Noise ?? 0.03) * n), apdex: f.apdex * (1 + (f.apdexNoise ?? 0.03) * n), efr_paper: f.efr * (1 + 0.03 * n) },
      }),
    );
    writeTestFolder(root, runId, variant, records, variant === 'msa-1-1' ? { 'breakdown.json': JSON.stringify(TRACED) } : {}, f.replicas);
    cells[variant] = loadSide(join(root, runId));
  }
  return cells;
}

/** The same recorded tests as cells at every load level ("<variant>@<level>"). */
export function atEveryLevel(byVariant: Record<string, Side>): Record<string, Side> {
  return Object.fromEntries(Object.entries(byVariant).flatMap(([v, side]) => LEVELS.map((l) => [`${v}@${l}`, side])));
}

/** beforeAll/afterAll of a spec reading the recorded cells at every level from a temporary folder. */
export function useRecordedCells(prefix: string): () => Record<string, Side> {
  let root = '';
  let cells: Record<string, Side> = {};
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), prefix));
    cells = atEveryLevel(writeRecordedResults(root));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return () => cells;
}
