import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { resultsDir } from '../paths';
import type { ResourceSample } from '../resource-sampler';
import type { SuiteRun } from '../suites/analyse';
import type { Aggregated } from '../types';

export interface LoadedResult {
  runId: string;
  dir: string;
  aggregated: Aggregated;
  samples: ResourceSample[];
  /** traces/ writes results/<run-id>/breakdown.json (and .md) when it has analysed the run. */
  breakdown: unknown | null;
  breakdownMd: string | null;
  /** Suites: suite-run-N.json of each run, in run order. */
  suiteRuns: SuiteRun[];
  /** The resolved spec as run (spec.yaml), for the transport comparison. */
  spec: Record<string, unknown> | null;
}

function suiteRunsIn(dir: string): SuiteRun[] {
  return readdirSync(dir)
    .map((f) => /^suite-run-(\d+)\.json$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => JSON.parse(readFileSync(join(dir, m[0]), 'utf8')) as SuiteRun);
}

export function loadResult(runId: string, root = resultsDir()): LoadedResult {
  const dir = join(root, runId);
  const file = join(dir, 'aggregated.json');
  if (!existsSync(file)) throw new Error(`no ${file}: is "${runId}" a finished bench run?`);
  const aggregated = JSON.parse(readFileSync(file, 'utf8')) as Aggregated;
  const resFile = join(dir, 'resources.json');
  const samples = existsSync(resFile) ? (JSON.parse(readFileSync(resFile, 'utf8')) as { samples: ResourceSample[] }).samples : [];
  const bjson = join(dir, 'breakdown.json');
  const bmd = join(dir, 'breakdown.md');
  return {
    runId,
    dir,
    aggregated,
    samples,
    breakdown: existsSync(bjson) ? JSON.parse(readFileSync(bjson, 'utf8')) : null,
    breakdownMd: existsSync(bmd) ? readFileSync(bmd, 'utf8') : null,
    suiteRuns: suiteRunsIn(dir),
    spec: existsSync(join(dir, 'spec.yaml')) ? (parse(readFileSync(join(dir, 'spec.yaml'), 'utf8')) as Record<string, unknown>) : null,
  };
}

/** Without explicit ids: the latest finished run of every (variant, profile, tracing). */
export function latestRunIds(root = resultsDir()): string[] {
  if (!existsSync(root)) return [];
  const latest = new Map<string, { id: string; at: string }>();
  for (const id of readdirSync(root)) {
    const file = join(root, id, 'aggregated.json');
    if (!existsSync(file)) continue;
    const a = JSON.parse(readFileSync(file, 'utf8')) as Aggregated;
    const key = `${a.meta.variant}|${a.meta.profileName}|${a.meta.tracing}`;
    const prev = latest.get(key);
    if (!prev || a.meta.startedAt > prev.at) latest.set(key, { id, at: a.meta.startedAt });
  }
  return [...latest.values()].map((v) => v.id).sort();
}
