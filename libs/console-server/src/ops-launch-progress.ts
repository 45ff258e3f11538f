/**
 * What the live page of a launched run shows, read from what the harness itself writes as it
 * goes — no second measurement:
 *
 *   the harness's progress lines ("[bench hh:mm:ss] ..." on its stderr)  → stage
 *   results/<run>/k6-run-N.log (k6's JSON log, written live)             → per run and step:
 *       the SPS requests' OK and KO (with KO causes), p95 of OK, throughput OK/s;
 *       `req` lines (suites, LOG_REQUESTS) carry their step, `sps` lines otherwise (one step)
 *   results/<run>/run-N.json, aggregated.json (written when a run ends)  → validity verdicts
 *
 * Logs are read incrementally (a soak's log grows to megabytes): each watcher keeps its offsets.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LaunchProgress, RunProgress, StepProgress } from '@shellgrade/console-contract';
import { z } from 'zod';

interface Sample {
  t: number;
  ms: number;
  ok: boolean;
  cause: string;
  step: number;
}

const k6Line = z.object({ msg: z.string() });
const spsLine = z.object({ sg: z.literal('sps'), start_ms: z.number(), duration_ms: z.number(), outcome: z.string(), status: z.number().nullish(), error_code: z.number().nullish() });
const reqLine = z.object({ sg: z.literal('req'), t: z.number(), ms: z.number(), type: z.string(), outcome: z.string(), cause: z.string().nullish(), step: z.number().nullish() });
const runRecord = z.object({ valid: z.boolean(), reasons: z.array(z.string()).default([]) });
const aggregated = z.object({ valid: z.boolean(), validRuns: z.number(), runsAsked: z.number() });

/** New complete lines appended to a file since the last call. */
export class LineTail {
  private offset = 0;
  private partial = '';
  constructor(private readonly file: string) {}

  read(): string[] {
    if (!existsSync(this.file)) return [];
    const size = statSync(this.file).size;
    if (size <= this.offset) return [];
    const fd = openSync(this.file, 'r');
    try {
      const buf = Buffer.alloc(size - this.offset);
      readSync(fd, buf, 0, buf.length, this.offset);
      this.offset = size;
      const lines = (this.partial + buf.toString('utf8')).split('\n');
      this.partial = lines.pop() ?? '';
      return lines.filter(Boolean);
    } finally {
      closeSync(fd);
    }
  }
}

function sampleOf(line: string): { sample: Sample; kind: 'sps' | 'req' } | null {
  let msg: unknown;
  try {
    const outer = k6Line.safeParse(JSON.parse(line));
    if (!outer.success || !outer.data.msg.startsWith('{')) return null;
    msg = JSON.parse(outer.data.msg);
  } catch {
    return null;
  }
  const sps = spsLine.safeParse(msg);
  if (sps.success) {
    const s = sps.data;
    return { kind: 'sps', sample: { t: s.start_ms, ms: s.duration_ms, ok: s.outcome === 'ok', cause: s.error_code ? `error ${s.error_code}` : `status ${s.status ?? 0}`, step: 0 } };
  }
  const req = reqLine.safeParse(msg);
  if (req.success && req.data.type === 'sps') {
    const r = req.data;
    return { kind: 'req', sample: { t: r.t, ms: r.ms, ok: r.outcome === 'ok', cause: r.cause ?? r.outcome, step: r.step ?? 0 } };
  }
  return null;
}

const p95 = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
};

function stepOf(step: number, samples: Sample[]): StepProgress {
  const ok = samples.filter((s) => s.ok);
  const koCauses: Record<string, number> = {};
  for (const s of samples) if (!s.ok) koCauses[s.cause] = (koCauses[s.cause] ?? 0) + 1;
  const ts = samples.map((s) => s.t);
  const spanS = ts.length > 1 ? (Math.max(...ts) - Math.min(...ts)) / 1000 : 0;
  return { step, ok: ok.length, ko: samples.length - ok.length, koCauses, p95Ms: p95(ok.map((s) => s.ms)), throughput: spanS > 0 ? ok.length / spanS : null };
}

const readJson = <T>(file: string, schema: z.ZodType<T>): T | null => {
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/** One watcher of one launched run: call `snapshot()` as often as the page should update. */
export class LaunchWatcher {
  private readonly harness: LineTail;
  private readonly lines: string[] = [];
  private readonly k6 = new Map<number, { tail: LineTail; sps: Sample[]; req: Sample[] }>();

  constructor(
    private readonly runDir: string,
    harnessLog: string,
  ) {
    this.harness = new LineTail(harnessLog);
  }

  snapshot(): LaunchProgress {
    for (const line of this.harness.read()) {
      const m = /^\[bench [\d:]+\] (.*)$/.exec(line);
      if (m) this.lines.push(m[1]!);
    }
    this.lines.splice(0, Math.max(0, this.lines.length - 8));
    const runs: RunProgress[] = [];
    for (let run = 1; existsSync(join(this.runDir, `k6-run-${run}.log`)); run++) runs.push(this.runProgress(run));
    const agg = readJson(join(this.runDir, 'aggregated.json'), aggregated);
    return { stage: this.lines.at(-1) ?? 'starting', lines: [...this.lines], runs, verdict: agg };
  }

  private runProgress(run: number): RunProgress {
    let state = this.k6.get(run);
    if (!state) this.k6.set(run, (state = { tail: new LineTail(join(this.runDir, `k6-run-${run}.log`)), sps: [], req: [] }));
    for (const line of state.tail.read()) {
      const s = sampleOf(line);
      if (s) state[s.kind].push(s.sample);
    }
    // Suites log every request with its step; other profiles only the SPS lines (one step).
    const samples = state.req.length ? state.req : state.sps;
    const steps = [...new Set(samples.map((s) => s.step))].sort((a, b) => a - b).map((step) => stepOf(step, samples.filter((s) => s.step === step)));
    const record = readJson(join(this.runDir, `run-${run}.json`), runRecord);
    return { run, steps, valid: record?.valid ?? null, reasons: record?.reasons ?? [] };
  }
}
