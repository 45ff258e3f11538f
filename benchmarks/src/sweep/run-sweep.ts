/**
 * `npm run bench -- sweep`: paper 001's closed-model thread sweep of one variant over the S1
 * and/or S2 request classes (benchmarks/sweep.js), each class from a cold cache, with the
 * cache's per-process counters and Redis's CPU/memory over the class, the per-step table and
 * the latency slope -> results/<run-id>/sweep-<class>.json and sweep.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { loadConnections, loadVariant } from '@shellgrade/variant';
import { k6OptionsArgs, writeK6Options, type SweepK6Options } from '../k6-options';
import { k6Path } from '../k6-tool';
import { phase } from '../log';
import { repoRoot, resultStamp, runDir } from '../paths';
import { loadProfile } from '../profiles';
import { ResourceSampler, type ProcessGroup } from '../resource-sampler';
import { K6_GROUP, summarizeResources } from '../resource-summary';
import { startInherited, waitExit } from '../shell';
import { entryUrl, processGroupsOf, resetProductions, seedStudents, variantStatus, variantUp } from '../stack';
import { judgeRun } from '../validity';
import { cacheDelta, parseRedisInfo, scrapeCaches, type ProcessCacheStats, type RedisUsage } from './cache-stats';
import { seedSessionProductions } from './data';
import { analyseSweep, sweepMarkdown, type SweepAnalysis, type SweepScheduleStep } from './steps';
import { exclusive } from '../harness-lock';

export type SweepClass = 's1' | 's2';
export const SWEEP_CLASSES: SweepClass[] = ['s1', 's2'];

export interface SweepOptions {
  variant: string;
  classes: SweepClass[];
  /** k6/profiles.json sweep profile (default sweep-scaled). */
  profile: string;
  runId?: string;
  /** Overrides of the profile's thread counts and hold/ramp lengths. */
  vus?: number[];
  holdS?: number;
  rampS?: number;
  /** Graded productions per statement of the seeded session written before S2 (its data). */
  productionsPerStatement: number;
}

export interface SweepClassResult {
  schema: 'shellgrade.sweep/1';
  variant: string;
  cache: string;
  topology: string;
  class: SweepClass;
  profile: string;
  schedule: SweepScheduleStep[];
  holdS: number;
  sessionProductions: number;
  analysis: SweepAnalysis;
  /** The SPS read-path cache (submission contexts), per process. */
  cacheStats: ProcessCacheStats[];
  /** The S2 cache (a report's session productions), per process. */
  reportCacheStats: ProcessCacheStats[];
  redis: { cpuS: number; usedMemoryBytes: number; keysAfter: number } | null;
  /** CPU seconds per process group over the class (variant processes, servers), k6's, and the CPU nobody accounts for. */
  cpu: { byGroup: Record<string, number>; k6S: number; foreignCores: number | null; k6SchedDelayMs: number | null };
  k6ExitCode: number;
}

export interface SweepRun {
  runId: string;
  dir: string;
  results: SweepClassResult[];
  markdown: string;
}

export function sweepRunId(variant: string, profile: string, now = new Date()): string {
  return `${resultStamp(now)}-${variant}-${profile}`;
}

async function redisUsage(url: string): Promise<RedisUsage | null> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return parseRedisInfo(await redis.info());
  } catch {
    return null;
  } finally {
    redis.disconnect();
  }
}

export function runSweep(opts: SweepOptions): Promise<SweepRun> {
  return exclusive(`bench sweep ${opts.variant}`, () => runSweepNow(opts));
}

async function runSweepNow(opts: SweepOptions): Promise<SweepRun> {
  const profile = loadProfile(opts.profile);
  if (!profile.sweep) throw new Error(`profile ${opts.profile} is not a sweep profile (sweep, sweep-scaled, sweep-smoke)`);
  const sweep = { ...profile.sweep, ...(opts.vus ? { vus: opts.vus } : {}), ...(opts.holdS ? { holdS: opts.holdS } : {}), ...(opts.rampS !== undefined ? { rampS: opts.rampS } : {}) };
  const spec = loadVariant(opts.variant);
  const runId = opts.runId ?? sweepRunId(spec.name, opts.profile);
  const dir = runDir(runId);
  mkdirSync(dir, { recursive: true });
  const connections = loadConnections();
  const k6 = await k6Path();
  phase(`sweep ${runId}: ${spec.name}, classes ${opts.classes.join('+')}, threads ${sweep.vus.join(',')} (${sweep.rampS} s ramp + ${sweep.holdS} s hold each) -> ${dir}`);

  await variantUp(opts.variant);
  const usersCsv = join(dir, 'users.csv');
  await seedStudents(profile.students, usersCsv, spec.auth.kdfCost);
  await resetProductions();
  const sessionProductions = await seedSessionProductions(connections.DATABASE_URL, opts.productionsPerStatement);
  phase(`sweep: ${sessionProductions} graded productions in the seeded session (S2's data)`);

  const results: SweepClassResult[] = [];
  for (const klass of opts.classes) {
    // Each class from a cold cache: `variant up` of the running variant empties it (--keep-cache aside).
    await variantUp(opts.variant);
    const status = await variantStatus();
    const summaryFile = join(dir, `k6-sweep-${klass}.json`);
    // The k6 options file, kept beside the summary (k6-options.ts).
    const optionsFile = join(dir, `k6-options-sweep-${klass}.json`);
    writeK6Options<SweepK6Options>(optionsFile, {
      script: 'sweep',
      profile: opts.profile,
      class: klass,
      baseUrl: entryUrl(status),
      usersCsv,
      vus: sweep.vus,
      rampS: sweep.rampS,
      holdS: sweep.holdS,
      gapS: sweep.gapS,
      summaryJson: summaryFile,
    });
    const args = ['run', '--quiet', '--log-output', `file=${join(dir, `k6-sweep-${klass}.log`)}`, '--log-format', 'json', ...k6OptionsArgs(optionsFile), join(repoRoot(), 'benchmarks', 'sweep.js')];

    const cachesBefore = await scrapeCaches(status.processes);
    const redisBefore = spec.cache === 'redis' ? await redisUsage(connections.REDIS_URL) : null;
    phase(`sweep ${klass}: k6 ${sweep.vus.length} steps`);
    // The machine's CPU over the class, as `bench run` samples it: a run is not the system's alone
    // when k6 starved or someone else used the CPU (validity.ts), Little's law aside.
    let groups: ProcessGroup[] = processGroupsOf(status);
    const sampler = new ResourceSampler(() => groups);
    sampler.start();
    const loadFromMs = Date.now();
    const child = startInherited(k6, args, {});
    if (child.pid) groups = [...groups, { name: K6_GROUP, role: 'load', pid: child.pid }];
    const k6ExitCode = await waitExit(child);
    const resources = summarizeResources(await sampler.stop(), totalmem(), undefined, { loadFromMs, holdFromMs: loadFromMs, holdToMs: Date.now() });
    const machine = judgeRun({ droppedIterations: 0, k6ExitCode, clientErrors: 0, resources });
    const cachesAfter = await scrapeCaches(status.processes);
    const redisAfter = spec.cache === 'redis' ? await redisUsage(connections.REDIS_URL) : null;

    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as {
      config: { schedule: SweepScheduleStep[]; sweep: { holdS: number } };
      k6: { metrics: Record<string, { values: Record<string, number> }> };
    };
    const analysis = analyseSweep(summary.config.schedule, summary.config.sweep.holdS, summary.k6.metrics);
    if (!machine.valid) {
      analysis.reasons.push(...machine.reasons);
      analysis.valid = false;
    }
    const stats = (cache: 'context' | 'report') =>
      [...cachesAfter]
        .map(([name, after]) => cacheDelta(name, (cachesBefore.get(name) ?? after)[cache], after[cache]))
        .filter((c) => spec.cache === 'redis' || c.hit + c.miss + c.error > 0)
        .sort((a, b) => a.process.localeCompare(b.process));
    const cacheStats = stats('context');
    const reportCacheStats = stats('report');
    const result: SweepClassResult = {
      schema: 'shellgrade.sweep/1',
      variant: spec.name,
      cache: spec.cache,
      topology: spec.topology,
      class: klass,
      profile: opts.profile,
      schedule: summary.config.schedule,
      holdS: summary.config.sweep.holdS,
      sessionProductions,
      analysis,
      cacheStats,
      reportCacheStats,
      cpu: { byGroup: resources.cpuSByGroup, k6S: resources.k6CpuS, foreignCores: resources.cpuResidualCores, k6SchedDelayMs: resources.k6SchedDelayMs },
      redis: redisBefore && redisAfter ? { cpuS: redisAfter.cpuS - redisBefore.cpuS, usedMemoryBytes: redisAfter.usedMemoryBytes, keysAfter: redisAfter.keys } : null,
      k6ExitCode,
    };
    writeFileSync(join(dir, `sweep-${klass}.json`), JSON.stringify(result, null, 2));
    results.push(result);
  }
  const markdown = [`## Sweep ${runId}`, ...results.map(classMarkdown)].join('\n\n') + '\n';
  writeFileSync(join(dir, 'sweep.md'), markdown);
  return { runId, dir, results, markdown };
}

/** The step table, the slope line and what the cache did. */
export function classMarkdown(r: SweepClassResult): string {
  const cache =
    r.cache === 'redis'
      ? [
          '',
          '',
          '| process | cache | hits | misses | errors | hit ratio | invalidations | entries dropped |',
          '|---|---|---:|---:|---:|---:|---:|---:|',
          ...(['context', 'report'] as const).flatMap((which) =>
            (which === 'context' ? r.cacheStats : r.reportCacheStats).map(
              (c) => `| ${c.process} | ${which} | ${c.hit} | ${c.miss} | ${c.error} | ${c.hitRatio === null ? '–' : `${(100 * c.hitRatio).toFixed(1)} %`} | ${which === 'context' ? c.invalidations : '·'} | ${which === 'context' ? c.invalidatedEntries : '·'} |`,
            ),
          ),
          r.redis ? `\nRedis: ${r.redis.cpuS.toFixed(2)} CPU s over the class, ${(r.redis.usedMemoryBytes / 2 ** 20).toFixed(1)} MiB used, ${r.redis.keysAfter} keys at the end.` : '',
        ].join('\n')
      : '';
  const cpu = `\n\nCPU over the class: ${Object.entries(r.cpu.byGroup)
    .map(([g, s]) => `${g} ${s.toFixed(1)} s`)
    .join(', ')}; k6 ${r.cpu.k6S.toFixed(1)} s; CPU used by nobody of the run ${r.cpu.foreignCores === null ? 'unknown' : `${r.cpu.foreignCores.toFixed(2)} cores`}.`;
  return sweepMarkdown(`${r.class.toUpperCase()} on ${r.variant} (cache ${r.cache}; ${r.sessionProductions} productions in the report's session)`, r.analysis) + cpu + cache;
}
