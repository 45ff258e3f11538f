/**
 * How fast this host is, measured the same way on every run so that results from different hosts
 * of the "same" machine type can be told apart. Two probes, each a median of a few repetitions on
 * a quiet machine just before the load starts: one scrypt hash (N = 2^14, r = 8, one thread: CPU and
 * memory bandwidth, the cost of a login) and one process spawn (`/bin/true`: fork + exec + exit +
 * reap, what sandboxed grading is made of). Hosts of one type were seen to differ by 2× in
 * both (2026-11-25 scrypt ≈ 39 ms, 2026-11-26 ≈ 60 ms): milliseconds from different hosts are not
 * comparable, ratios measured in one session are.
 */
import { scryptSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import type { MachineSpeed } from '@shellgrade/console-contract';
import { median } from 'simple-statistics';

/** Declared in the console's contract (compare.json carries each side's). */
export type { MachineSpeed };

function timedMs(work: () => void): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** ~0.5 s on the hosts seen so far. */
export function measureMachineSpeed(repetitions = { scrypt: 5, spawn: 21 }): MachineSpeed {
  const scrypt = Array.from({ length: repetitions.scrypt }, () => timedMs(() => scryptSync('speed probe', 'salt', 64, { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 2 ** 20 })));
  const spawn = Array.from({ length: repetitions.spawn }, () => timedMs(() => spawnSync('/bin/true')));
  const bootId = currentBootId();
  return { scryptN14Ms: round2(median(scrypt)), spawnMs: round2(median(spawn)), ...(bootId ? { bootId } : {}) };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Hosts whose probes differ by more than this factor are called different in speed. */
export const SPEED_TOLERANCE = 1.25;

/**
 * Why two results should not be compared in milliseconds (their hosts' probes differ by more than
 * SPEED_TOLERANCE), or null when they may be (the same boot of one host, or a side has no probe:
 * results older than it).
 */
export function speedMismatch(a: MachineSpeed | undefined, b: MachineSpeed | undefined): string | null {
  if (!a || !b) return null;
  // One boot is one host: probes 69 and 42 ms apart were seen within one boot (a probe meets passing load).
  if (a.bootId && a.bootId === b.bootId) return null;
  const ratio = (x: number, y: number) => Math.max(x, y) / Math.min(x, y);
  const differs = ratio(a.scryptN14Ms, b.scryptN14Ms) > SPEED_TOLERANCE || ratio(a.spawnMs, b.spawnMs) > SPEED_TOLERANCE;
  if (!differs) return null;
  return (
    `the two sides ran on hosts of different speed (scrypt 2^14 ${a.scryptN14Ms} vs ${b.scryptN14Ms} ms, process spawn ${a.spawnMs} vs ${b.spawnMs} ms): ` +
    'differences in ms and CPU per request mix the host with the system; compare ratios measured in one session instead'
  );
}

/** The probe as the report's machine line says it. */
export function speedText(s: MachineSpeed | undefined): string {
  return s ? `speed probe: scrypt 2^14 ${s.scryptN14Ms} ms, process spawn ${s.spawnMs} ms` : 'speed probe not recorded';
}

/**
 * This boot of this host (Linux's random boot id), or null where the kernel does not say. A
 * capacity measured on another boot may be another host's: hosts of one type differ up to 2×.
 */
export function currentBootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}
