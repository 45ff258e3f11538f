/**
 * Processes that served scenario R a moment ago need no warm-up: their code is compiled, their
 * pools are open. A warm-up (or a measured run after one) records the processes it warmed, by
 * name, pid and restart count; the next test on the very same processes, within the freshness
 * bound, skips its warm-up and says so. A restart, a switch of variant or a stale record warms
 * up again.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from './paths';
import type { VariantStatus } from './stack';

/** Older than this, pools may have idled out: warm up again. */
export const WARM_FOR_MS = 10 * 60_000;

export interface WarmRecord {
  /** The processes warmed: "name:pid:restarts", sorted. */
  processes: string[];
  variant: string;
  /** The run whose warm-up or load warmed them. */
  runId: string;
  atMs: number;
}

function markFile(): string {
  return join(repoRoot(), 'run', 'bench-warm.json');
}

/** Who the running processes are; null when one is not online (nothing to call warm). */
export function processIdentity(status: VariantStatus): string[] | null {
  if (!status.variant || status.processes.length === 0) return null;
  if (status.processes.some((p) => !p.pid || p.status !== 'online')) return null;
  return status.processes.map((p) => `${p.name}:${p.pid}:${p.restarts ?? 0}`).sort();
}

/** The record that makes these processes warm now, or null (warm up). */
export function warmedBy(status: VariantStatus, record: WarmRecord | null, nowMs = Date.now()): WarmRecord | null {
  const identity = processIdentity(status);
  if (!identity || !record || record.variant !== status.variant) return null;
  if (nowMs - record.atMs > WARM_FOR_MS || nowMs < record.atMs) return null;
  return identity.join(' ') === record.processes.join(' ') ? record : null;
}

export function readWarmRecord(file = markFile()): WarmRecord | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as WarmRecord;
  } catch {
    return null;
  }
}

/** Records the processes of `status` as warm (after a successful warm-up or measured run). */
export function recordWarm(status: VariantStatus, runId: string, file = markFile(), nowMs = Date.now()): void {
  const identity = processIdentity(status);
  if (!identity || !status.variant) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ processes: identity, variant: status.variant, runId, atMs: nowMs } satisfies WarmRecord, null, 2));
}
