// Grader-only baseline (results/grader-baseline/latest.json, written by benchmarks/grader-baseline):
// gradings per second with no HTTP, database or sessions — the physical limit of SPS here.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from './paths';

export interface BaselinePoint {
  label: string;
  gradingsPerS: number;
}

export interface Baseline {
  file: string;
  points: BaselinePoint[];
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
      out.push({ label: tags.length ? tags.join(', ') : [...path, k].join('.'), gradingsPerS: v });
    } else if (v && typeof v === 'object') {
      out.push(...baselinePoints(v, [...path, k]));
    }
  }
  return out;
}

export function loadBaseline(file = join(resultsDir(), 'grader-baseline', 'latest.json')): Baseline | null {
  if (!existsSync(file)) return null;
  const points = baselinePoints(JSON.parse(readFileSync(file, 'utf8')));
  if (points.length === 0) return null;
  const best = points.reduce((a, b) => (b.gradingsPerS > a.gradingsPerS ? b : a));
  return { file, points, best };
}
