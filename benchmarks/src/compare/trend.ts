// `bench trend <preset>`: one preset's recorded tests over time (the newest N, shown oldest
// first), read as `bench compare` reads them (loadResult, run-N.json, runMetrics): per test its
// date, profile, the host's speed probe, throughput, SPS p50/p95/p99, KO share, CPU per
// iteration and validity; each host set against the median probed one, flagged beyond
// SPEED_TOLERANCE. Only plain tests of a profile are points — what the run's manifest says was
// run: `bench run`, `matrix` or `main` (the console launches `run`), whatever the folder is called
// (`bench back-to-back` names its tests b2b-…) — while calibrations, fault and findings runs load
// the system their own way and are listed as left out. A folder without a manifest's command
// (older runs) is judged by its name (<stamp>-<preset>-<profile>, as makeRunId names it). The
// shape is the console's contract (Trend).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Trend, TrendPoint } from '@shellgrade/console-contract';
import { mean } from 'simple-statistics';
import { resultsDir } from '../paths';
import { SPEED_TOLERANCE, speedMismatch } from '../machine-speed';
import { loadResult } from '../report/load-results';
import type { RunRecord } from '../types';
import { MANIFEST_FILE } from '../provenance/manifest';
import { ALL, REQUEST_METRICS, RUN, RUN_METRICS, runMetrics } from './run-metrics';
import { loadRunRecords } from './sides';

export type { Trend, TrendPoint };

export const DEFAULT_LAST = 10;
/** A run cancelled from the console (libs/console-server ops-launch.ts): INVALID whatever its files say. */
const CANCEL_FILE = 'cancelled.json';
const STAMP = /^\d{8}T\d{6}Z-/;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The bench subcommands whose tests are plain tests of their profile. */
const PLAIN_COMMANDS = ['run', 'matrix', 'main'];

/** What a run folder's manifest says about it (null fields: not recorded). */
export interface ManifestFacts {
  variant: string | null;
  profile: string | null;
  /** `npm run bench -- <args>` as the run was started, when the bench CLI started it. */
  command: string | null;
}

export function readManifestFacts(dir: string): ManifestFacts | null {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return null;
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as { variant?: { name?: string }; profile?: { name?: string }; command?: string };
    return { variant: m.variant?.name ?? null, profile: m.profile?.name ?? null, command: m.command ?? null };
  } catch {
    return null;
  }
}

/** The bench subcommand of a recorded command ("npm run bench -- run --variant …" → "run"). */
export function benchSubcommand(command: string): string | null {
  return /\bbench -- (\S+)/.exec(command)?.[1] ?? null;
}

/**
 * Whether a result folder is a plain test of `variant` under `profile`, and if not why: by its
 * manifest's command when it recorded one, else by its name. Null reason: a point.
 */
export function leftOutReason(runId: string, facts: ManifestFacts | null, variant: string, profile: string): string | null {
  const sub = facts?.command ? benchSubcommand(facts.command) : null;
  if (sub !== null) return PLAIN_COMMANDS.includes(sub) ? null : `a ${sub} run (${facts!.command}) loads the system its own way, not a plain test of the ${profile} profile`;
  return isPlainTest(runId, variant, profile) ? null : `not a plain test of the ${profile} profile (a fault, findings or calibration run loads the system its own way)`;
}

/** Whether a folder name is a plain test of `variant` under `profile` (makeRunId's shape). */
export function isPlainTest(runId: string, variant: string, profile: string): boolean {
  return new RegExp(`^\\d{8}T\\d{6}Z-${escape(variant)}-${escape(profile)}(-tracing)?(-kdf\\d+)?$`).test(runId);
}

const KEYS = {
  throughput: `${ALL}/throughput`,
  spsP50: 'sps/p50',
  spsP95: 'sps/p95',
  spsP99: 'sps/p99',
  koShare: `${ALL}/koShare`,
  cpuSPerIteration: `${RUN}/cpuSPerIteration`,
} as const;

const def = (metric: string, label?: string) => {
  const d = [...REQUEST_METRICS, ...RUN_METRICS].find((m) => m.metric === metric)!;
  return label ? { ...d, label } : d;
};
const METRICS: Trend['metrics'] = {
  throughput: def('throughput', 'throughput (OK/s, all requests)'),
  spsP50: def('p50', 'SPS p50 of OK responses'),
  spsP95: def('p95', 'SPS p95 of OK responses'),
  spsP99: def('p99', 'SPS p99 of OK responses'),
  koShare: def('koShare', 'KO share KO/(OK+KO), all requests'),
  cpuSPerIteration: def('cpuSPerIteration'),
};

/** The mean of each figure over the runs given (null when none has it). */
function figures(records: RunRecord[]): Pick<TrendPoint, keyof typeof KEYS> {
  const values = records.map(runMetrics);
  const out = {} as Pick<TrendPoint, keyof typeof KEYS>;
  for (const [field, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) {
    const xs = values.map((v) => v[key]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    out[field] = xs.length ? mean(xs) : null;
  }
  return out;
}

function cancelReasons(dir: string): string[] | null {
  const file = join(dir, CANCEL_FILE);
  if (!existsSync(file)) return null;
  try {
    const reasons = (JSON.parse(readFileSync(file, 'utf8')) as { reasons?: unknown }).reasons;
    return Array.isArray(reasons) && reasons.length ? reasons.map(String) : ['cancelled from the console'];
  } catch {
    return ['cancelled from the console'];
  }
}

function pointOf(runId: string, root: string): TrendPoint {
  const result = loadResult(runId, root);
  const a = result.aggregated;
  const records = loadRunRecords(result);
  const valid = records.filter((r) => r.valid);
  const cancelled = cancelReasons(result.dir);
  const from: TrendPoint['figuresFrom'] = valid.length ? 'valid' : records.length ? 'all' : 'none';
  const invalidReasons = [...(cancelled ?? []), ...records.filter((r) => !r.valid).flatMap((r) => r.reasons.map((why) => `run ${r.run}: ${why}`))];
  return {
    runId,
    startedAt: a.meta.startedAt ?? null,
    profile: a.meta.profileName,
    speed: a.meta.machine?.speed ?? null,
    runs: records.length,
    validRuns: valid.length,
    valid: cancelled ? false : a.valid,
    invalidReasons: cancelled || !a.valid ? (invalidReasons.length ? invalidReasons : a.invalidReasons) : [],
    figuresFrom: from,
    ...figures(valid.length ? valid : records),
    hostWarning: null,
  };
}

/**
 * The run whose host is the reference: the one with the median scrypt probe among the probed
 * runs (the lower middle of an even count; the newest of equal probes). A median, not the newest:
 * one run on an odd host (or probed under foreign load) is the one flagged, not all the others.
 */
export function medianHost(points: TrendPoint[]): TrendPoint | undefined {
  const probed = points.map((p, i) => ({ p, i })).filter((x) => x.p.speed !== null);
  probed.sort((x, y) => x.p.speed!.scryptN14Ms - y.p.speed!.scryptN14Ms || y.i - x.i);
  return probed[Math.floor((probed.length - 1) / 2)]?.p;
}

export interface TrendOptions {
  last?: number;
  profile?: string;
  root?: string;
}

/** The command a shell user types for the same table. */
export function trendCommand(preset: string, o: TrendOptions): string {
  return ['npm run bench -- trend --variant', preset, ...(o.last && o.last !== DEFAULT_LAST ? ['--last', String(o.last)] : []), ...(o.profile ? ['--profile', o.profile] : [])].join(' ');
}

export function presetTrend(preset: string, o: TrendOptions = {}): Trend {
  const root = o.root ?? resultsDir();
  const last = o.last ?? DEFAULT_LAST;
  const tests: { runId: string; startedAt: string; profile: string }[] = [];
  const leftOut: Trend['leftOut'] = [];
  if (existsSync(root)) {
    for (const e of readdirSync(root, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const facts = readManifestFacts(join(root, e.name));
      // Without a manifest's command only the folder name says what it was.
      if (!facts?.command && !STAMP.test(e.name)) continue;
      const file = join(root, e.name, 'aggregated.json');
      if (!existsSync(file)) continue;
      let meta: { variant?: string; profileName?: string; startedAt?: string };
      try {
        meta = (JSON.parse(readFileSync(file, 'utf8')) as { meta?: typeof meta }).meta ?? {};
      } catch {
        continue;
      }
      if ((facts?.variant ?? meta.variant) !== preset) continue;
      const profile = facts?.profile ?? meta.profileName ?? '';
      if (o.profile && profile !== o.profile) continue;
      const reason = leftOutReason(e.name, facts, preset, profile);
      if (reason) {
        leftOut.push({ runId: e.name, reason });
        continue;
      }
      tests.push({ runId: e.name, startedAt: meta.startedAt ?? '', profile });
    }
  }
  tests.sort((x, y) => x.startedAt.localeCompare(y.startedAt) || x.runId.localeCompare(y.runId));
  const points = tests.slice(-last).map((t) => pointOf(t.runId, root));
  const ref = medianHost(points);
  const reference = ref ? { runId: ref.runId, speed: ref.speed! } : null;
  for (const p of points) if (reference && p.runId !== reference.runId) p.hostWarning = speedMismatch(reference.speed, p.speed ?? undefined);
  return { preset, profile: o.profile ?? null, last, speedTolerance: SPEED_TOLERANCE, reference, metrics: METRICS, points, leftOut: leftOut.sort((x, y) => x.runId.localeCompare(y.runId)), command: trendCommand(preset, o) };
}

const fmt = (v: number | null, unit: string): string => (v === null ? '—' : unit === '' ? `${(100 * v).toFixed(2)} %` : unit === 's' ? `${(1000 * v).toFixed(1)} ms` : unit === 'ms' ? `${v.toFixed(0)} ms` : `${v.toFixed(2)} ${unit}`);

/** The table as Markdown, for a shell user. */
export function trendMarkdown(t: Trend): string {
  const m = t.metrics;
  const head = ['run', 'started', 'profile', 'speed probe (scrypt / spawn ms)', m.throughput.label, 'SPS p50', 'SPS p95', 'SPS p99', 'KO share', 'CPU / iteration', 'validity'];
  const rows = t.points.map((p) => [
    p.runId,
    p.startedAt ?? '—',
    p.profile,
    p.speed ? `${p.speed.scryptN14Ms} / ${p.speed.spawnMs}${p.hostWarning ? ' (other host speed)' : ''}` : 'not recorded',
    fmt(p.throughput, m.throughput.unit),
    fmt(p.spsP50, 'ms'),
    fmt(p.spsP95, 'ms'),
    fmt(p.spsP99, 'ms'),
    fmt(p.koShare, ''),
    fmt(p.cpuSPerIteration, 's'),
    `${p.valid ? 'VALID' : 'INVALID'} (${p.validRuns}/${p.runs})${p.figuresFrom === 'all' ? ', figures from INVALID runs' : ''}`,
  ]);
  const lines = [
    `# Trend of ${t.preset}${t.profile ? ` (${t.profile})` : ''}: the last ${t.last} tests`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    t.reference ? `Hosts are set against ${t.reference.runId}'s (tolerance ${t.speedTolerance}x on either probe).` : 'No run recorded a speed probe.',
    ...t.points.filter((p) => p.hostWarning).map((p) => `- ${p.runId}: ${p.hostWarning}`),
    ...(t.leftOut.length ? ['', `Left out: ${t.leftOut.length} result folders of ${t.preset} that are not plain tests of a profile.`] : []),
  ];
  return lines.join('\n');
}
