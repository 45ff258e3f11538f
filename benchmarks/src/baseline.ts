// Grader-only baseline (written by benchmarks/grader-baseline): gradings per second with no HTTP,
// database or sessions — the physical limit of SPS here. Only the sandboxed rows count (the
// variants grade in the sandbox too), and the file is copied into the run folder when the run
// starts: a report never reads a baseline that may have changed since.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from './paths';

export interface BaselinePoint {
  label: string;
  gradingsPerS: number;
  /** The row's isolation (bwrap, none, ...); null when the file does not say. */
  isolation: string | null;
}

export interface Baseline {
  file: string;
  points: BaselinePoint[];
  /** Best sandboxed row. */
  best: BaselinePoint;
}

const RATE_KEY = /grading.*(per|\/)_?s|per_?s(ec(ond)?)?$|throughput|rate/i;

/** Finds every {concurrency|label..., <rate>} leaf pair; tolerant of the file's exact shape. */
export function baselinePoints(json: unknown, path: string[] = []): BaselinePoint[] {
  if (json === null || typeof json !== 'object') return [];
  if (Array.isArray(json)) return json.flatMap((v, i) => baselinePoints(v, [...path, String(i)]));
  const obj = json as Record<string, unknown>;
  const out: BaselinePoint[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'number' && RATE_KEY.test(k) && Number.isFinite(v) && v > 0) {
      const tags = ['mode', 'exec', 'concurrency', 'workers']
        .filter((t) => obj[t] !== undefined)
        .map((t) => `${t} ${String(obj[t])}`);
      out.push({ label: tags.length ? tags.join(', ') : [...path, k].join('.'), gradingsPerS: v, isolation: typeof obj.isolation === 'string' ? obj.isolation : null });
    } else if (v && typeof v === 'object') {
      out.push(...baselinePoints(v, [...path, k]));
    }
  }
  return out;
}

/** Rows graded with the same isolation as the variants (any sandbox, not `none`). */
export function sandboxed(points: BaselinePoint[]): BaselinePoint[] {
  return points.filter((p) => p.isolation !== null && p.isolation !== 'none');
}

export const BASELINE_IN_RUN = 'grader-baseline.json';

export function latestBaselineFile(): string {
  return join(resultsDir(), 'grader-baseline', 'latest.json');
}

export function loadBaseline(file: string): Baseline | null {
  if (!existsSync(file)) return null;
  const points = sandboxed(baselinePoints(JSON.parse(readFileSync(file, 'utf8'))));
  if (points.length === 0) return null;
  const best = points.reduce((a, b) => (b.gradingsPerS > a.gradingsPerS ? b : a));
  return { file, points, best };
}

/** Copies the current baseline into the run folder; the run's figures refer to that copy. */
export function copyBaselineInto(dir: string, source = latestBaselineFile()): Baseline | null {
  if (!existsSync(source)) return null;
  const copy = join(dir, BASELINE_IN_RUN);
  copyFileSync(source, copy);
  return loadBaseline(copy);
}
