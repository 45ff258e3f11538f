/**
 * What the read-path cache did during a run, per process: its Prometheus counters
 * (libs/cache/src/cache-metrics.ts) read straight from each replica's /metrics before and after,
 * and Redis's own CPU and memory (INFO) — paper 001's question is what the cache buys, so a run
 * says how often it answered and what it cost.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../paths';

/**
 * The header that opens a service's /metrics wherever it listens: the installation's scrape
 * token (run/secrets.json, written by the launcher). None without the file (loopback still answers).
 */
export function scrapeHeaders(secretsFile = join(repoRoot(), 'run', 'secrets.json')): Record<string, string> {
  try {
    const { scrapeToken } = JSON.parse(readFileSync(secretsFile, 'utf8')) as { scrapeToken?: unknown };
    return typeof scrapeToken === 'string' && scrapeToken ? { Authorization: `Bearer ${scrapeToken}` } : {};
  } catch {
    return {};
  }
}
export interface CacheCounters {
  hit: number;
  miss: number;
  error: number;
  invalidations: number;
  invalidatedEntries: number;
}

export interface ProcessCacheStats extends CacheCounters {
  process: string;
  /** hit / (hit + miss + error) over the run; null without a lookup. */
  hitRatio: number | null;
}

const ZERO: CacheCounters = { hit: 0, miss: 0, error: 0, invalidations: 0, invalidatedEntries: 0 };

/**
 * The cache counters of one /metrics text (sums over label values where several): `context`, the
 * SPS read path (shellgrade_cache_*), or `report`, the productions a session report reads
 * (shellgrade_report_cache_*); invalidations are one counter for both.
 */
export function parseCacheCounters(text: string, cache: 'context' | 'report' = 'context'): CacheCounters {
  const out = { ...ZERO };
  const requests = cache === 'context' ? 'shellgrade_cache_requests_total' : 'shellgrade_report_cache_requests_total';
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^(shellgrade_(?:report_)?cache_[a-z_]+)(\{[^}]*\})?\s+(\S+)$/.exec(line.trim());
    if (!m) continue;
    const [, name, labels = '', raw] = m;
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    if (name === requests) {
      const result = /result="(hit|miss|error)"/.exec(labels)?.[1] as 'hit' | 'miss' | 'error' | undefined;
      if (result) out[result] += value;
    } else if (name === 'shellgrade_cache_invalidations_total') out.invalidations += value;
    else if (name === 'shellgrade_cache_invalidated_entries_total') out.invalidatedEntries += value;
  }
  return out;
}

export function cacheDelta(process: string, before: CacheCounters, after: CacheCounters): ProcessCacheStats {
  // A replica restarted during the run starts its counters again: count from zero then.
  const d = (k: keyof CacheCounters) => (after[k] >= before[k] ? after[k] - before[k] : after[k]);
  const c: CacheCounters = { hit: d('hit'), miss: d('miss'), error: d('error'), invalidations: d('invalidations'), invalidatedEntries: d('invalidatedEntries') };
  const lookups = c.hit + c.miss + c.error;
  return { process, ...c, hitRatio: lookups === 0 ? null : c.hit / lookups };
}

/** Every process's counters of both caches (a process without /metrics, e.g. HAProxy, is left out). */
export async function scrapeCaches(
  processes: { name: string; port?: number | null; role?: string }[],
  headers: Record<string, string> = scrapeHeaders(),
): Promise<Map<string, { context: CacheCounters; report: CacheCounters }>> {
  const out = new Map<string, { context: CacheCounters; report: CacheCounters }>();
  await Promise.all(
    processes
      .filter((p) => p.port && p.role !== 'haproxy')
      .map(async (p) => {
        try {
          const res = await fetch(`http://127.0.0.1:${p.port}/metrics`, { headers, signal: AbortSignal.timeout(5_000) });
          if (res.ok) {
            const text = await res.text();
            out.set(p.name, { context: parseCacheCounters(text, 'context'), report: parseCacheCounters(text, 'report') });
          }
        } catch {
          /* not answering: no figures for it */
        }
      }),
  );
  return out;
}

export interface RedisUsage {
  cpuS: number;
  usedMemoryBytes: number;
  keys: number;
}

/** Redis CPU seconds (user + sys), memory and key count from INFO. */
export function parseRedisInfo(info: string): RedisUsage {
  const field = (name: string) => Number(new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1] ?? 0);
  const keys = [...info.matchAll(/^db\d+:keys=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  return { cpuS: field('used_cpu_user') + field('used_cpu_sys'), usedMemoryBytes: field('used_memory'), keys };
}

export interface RunCacheStats {
  /** The SPS read-path cache (submission contexts). */
  context: ProcessCacheStats[];
  /** The S2 cache (a report's session productions). */
  report: ProcessCacheStats[];
}

/** Per-process deltas of both caches between two scrapes (processes only in `after` count from zero). */
export function runCacheStats(before: Map<string, { context: CacheCounters; report: CacheCounters }>, after: Map<string, { context: CacheCounters; report: CacheCounters }>): RunCacheStats {
  const of = (cache: 'context' | 'report') =>
    [...after].map(([name, a]) => cacheDelta(name, before.get(name)?.[cache] ?? ZERO, a[cache])).sort((x, y) => x.process.localeCompare(y.process));
  return { context: of('context'), report: of('report') };
}
