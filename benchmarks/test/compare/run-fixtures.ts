// Run records (run-N.json) with chosen figures, and a results folder holding them, for compare,
// provenance and findings tests.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { aggregatedFixture, smokePaper } from '../support';
import type { PaperMetrics, RequestTypeMetrics, RunRecord } from '../../src/types';

export interface RunFigures {
  p50?: number;
  throughput?: number;
  sps?: Partial<RequestTypeMetrics>;
  ok?: number;
  ko?: number;
  cpuS?: number;
  memMiB?: number;
  /** Energy per run (the harness's estimate: derived.energyEstimate.wh). */
  energyWh?: number;
  valid?: boolean;
  paper?: Partial<PaperMetrics>;
}

export function runRecord(run: number, f: RunFigures = {}): RunRecord {
  const hold: PaperMetrics = {
    ...smokePaper(),
    OK: f.ok ?? 90,
    KO: f.ko ?? 0,
    p50: f.p50 ?? 10,
    throughput: f.throughput ?? 15,
    durationS: 6,
    perType: { sps: { ok: 9, ko: 0, p50: 50, p95: 60, p99: 70, ...f.sps }, login: { ok: 9, ko: 0, p50: 5, p95: 6, p99: 7 } },
    ...f.paper,
  };
  return {
    run,
    startedAt: '2026-11-22T00:00:00.000Z',
    endedAt: '2026-11-22T00:01:00.000Z',
    k6ExitCode: 0,
    valid: f.valid ?? true,
    reasons: f.valid === false ? ['k6 dropped 3 iterations'] : [],
    paper: { ...hold, stages: { hold, ramp: smokePaper() } },
    resources: { variantCpuS: f.cpuS ?? 9, variantPssMeanBytes: (f.memMiB ?? 300) * 2 ** 20 },
    derived: { cpuSPerOk: null, machineCpuSPerOk: null, cpuSPerIteration: null, machineCpuSPerIteration: null, energyWh: null, energyEstimate: f.energyWh === undefined ? null : { meanW: 0, wh: f.energyWh } },
    crashes: [],
    restarts: {},
    audit: null,
    dashboard: null,
    loadAvg1: { before: 0, after: 0 },
  } as unknown as RunRecord;
}

/** A finished test folder <root>/<runId> with aggregated.json and run-N.json (+ optional extra files). */
export function writeTestFolder(root: string, runId: string, variant: string, records: RunRecord[], extra: Record<string, string> = {}, replicas: Record<string, number> = { monolith: 1 }): string {
  const dir = join(root, runId);
  mkdirSync(dir, { recursive: true });
  const aggregated = aggregatedFixture(variant, variant.startsWith('msa') ? 'msa' : 'monolith', replicas, records.map((r) => r.paper.stages!.hold));
  aggregated.meta.runId = runId;
  aggregated.runLines = records.map((r) => ({ ...aggregated.runLines[r.run - 1], valid: r.valid, reasons: r.reasons }));
  writeFileSync(join(dir, 'aggregated.json'), JSON.stringify(aggregated));
  for (const r of records) writeFileSync(join(dir, `run-${r.run}.json`), JSON.stringify(r));
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(dir, file), text);
  return dir;
}
