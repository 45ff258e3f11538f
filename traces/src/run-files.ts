/**
 * Where a run's files live (results/<run-id>/, same layout as benchmarks/) and what
 * traces/ needs from the harness's aggregated.json: the time window, the variant and
 * the SPS throughput/p95 estimates.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (existsSync(join(dir, 'nx.json')) && existsSync(join(dir, 'traces'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no repository root (nx.json) above ${__dirname}`);
    dir = parent;
  }
}

export function runDir(runId: string): string {
  if (!/^[\w.-]+$/.test(runId)) throw new Error(`invalid run id "${runId}" (letters, digits, . _ - only)`);
  return join(resolve(process.env.SG_RESULTS_DIR ?? join(repoRoot(), 'results')), runId);
}

interface EstimateLike {
  mean: number;
}

export interface RunAggregate {
  meta: { runId?: string; variant?: string; startedAt?: string; endedAt?: string; tracing?: boolean };
  paper: Record<string, EstimateLike | null | undefined>;
}

export function readAggregate(runId: string): RunAggregate {
  const path = join(runDir(runId), 'aggregated.json');
  if (!existsSync(path)) throw new Error(`${path} does not exist: run the benchmark first (npm run bench)`);
  const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<RunAggregate>;
  if (!data.meta || !data.paper) throw new Error(`${path} has no meta/paper block`);
  return data as RunAggregate;
}

/** Time window of a run from its aggregated.json (or meta.json while it is running). */
export function runWindow(runId: string): { fromMs: number; toMs: number; variant?: string } {
  const dir = runDir(runId);
  for (const name of ['aggregated.json', 'meta.json']) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const data = JSON.parse(readFileSync(path, 'utf8')) as { meta?: RunAggregate['meta'] } & RunAggregate['meta'];
    const meta = data.meta ?? data;
    const from = Date.parse(meta.startedAt ?? '');
    const to = Date.parse(meta.endedAt ?? '') || Date.now();
    if (Number.isFinite(from)) return { fromMs: from, toMs: to, variant: meta.variant };
  }
  throw new Error(`no aggregated.json or meta.json with startedAt in ${dir}: pass --from/--to`);
}
