// `bench run`: one *test* of the paper's protocol (§IV-B) on one variant — bring it up, seed,
// warm up, then R runs of benchmarks/sps.js with pauses, productions deleted after each run,
// resources sampled throughout — and the results folder results/<run-id>/.
import { copyFileSync, createReadStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadVariant, variantsDir } from '@shellgrade/variant';
import { stringify } from 'yaml';
import { aggregateRuns } from './aggregate';
import { energyWh, raplDomains, readEnergyUj } from './energy';
import { k6Path, k6Version } from './k6-tool';
import { phase } from './log';
import { machineFacts } from './machine';
import { defaultArchive, runDir, spsScript } from './paths';
import { loadProfile, type Profile } from './profiles';
import { ResourceSampler, type ProcessGroup } from './resource-sampler';
import { K6_GROUP, summarizeResources } from './resource-summary';
import { sleep, startInherited, waitExit } from './shell';
import { entryUrl, resetProductions, seedStudents, variantDown, variantStatus, variantUp, type VariantStatus } from './stack';
import type { Aggregated, PaperMetrics, RunRecord, TestMeta } from './types';
import { DEFAULT_VALIDITY, judgeRun } from './validity';
import { writeResources } from './resources-file';

export interface RunOptions {
  variant: string;
  profile: string;
  runs?: number;
  pauseS?: number;
  tracing?: 'on' | 'off';
  keepUp?: boolean;
  raw?: boolean;
  apdexTMs?: number;
  runId?: string;
  /** Repeat a run invalidated only by a variant switch (shared launcher), at most this many times. */
  retrySwitched?: number;
  /** Override the profile's injection (calibration steps, ad-hoc runs). */
  peak?: number;
  rampS?: number;
  holdS?: number;
}

export function makeRunId(variant: string, profile: string, tracing: 'on' | 'off' | undefined, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return [stamp, variant, profile, tracing === 'on' ? 'tracing' : ''].filter(Boolean).join('-');
}

function groupsOf(status: VariantStatus): ProcessGroup[] {
  const groups: ProcessGroup[] = [];
  for (const p of status.processes) if (p.pid) groups.push({ name: p.name, role: p.role ?? 'service', pid: p.pid });
  for (const s of status.servers) if (s.pid) groups.push({ name: s.name, role: 'server', pid: s.pid });
  return groups;
}

function restartsOf(status: VariantStatus): Record<string, number> {
  return Object.fromEntries(status.processes.map((p) => [p.name, p.restarts ?? 0]));
}

/** Identity of the running processes: a restart or a variant switch changes it. */
export function fingerprint(status: VariantStatus): string {
  return `${status.variant ?? '-'}|${status.processes.map((p) => `${p.name}:${p.pid ?? '-'}`).sort().join(',')}`;
}

function isUp(status: VariantStatus, variant: string): boolean {
  return status.variant === variant && status.processes.length > 0 && status.processes.every((p) => p.status === 'online');
}

/** Keeps the SPS sample lines (trace id, start, client duration) that traces/ matches to Jaeger. */
async function extractSpsSamples(logFile: string, outFile: string): Promise<number> {
  if (!existsSync(logFile)) return 0;
  const lines: string[] = [];
  const rl = createInterface({ input: createReadStream(logFile) });
  for await (const line of rl) {
    if (!line.includes('\\"sg\\":\\"sps\\"')) continue;
    try {
      const msg = (JSON.parse(line) as { msg: string }).msg;
      lines.push(JSON.stringify(JSON.parse(msg)));
    } catch {
      /* a k6 warning that merely quotes the marker */
    }
  }
  writeFileSync(outFile, lines.length ? lines.join('\n') + '\n' : '');
  return lines.length;
}

/** When k6 began sending load: the `{"sg":"start"}` line its setup() logs (0 if absent). */
async function loadStartMs(logFile: string): Promise<number> {
  if (!existsSync(logFile)) return 0;
  const rl = createInterface({ input: createReadStream(logFile) });
  for await (const line of rl) {
    if (!line.includes('\\"sg\\":\\"start\\"')) continue;
    try {
      const start = (JSON.parse((JSON.parse(line) as { msg: string }).msg) as { start_ms?: number }).start_ms;
      rl.close();
      return typeof start === 'number' ? start : 0;
    } catch {
      /* not our marker */
    }
  }
  return 0;
}

interface K6Invocation {
  k6: string;
  env: Record<string, string>;
  args: string[];
}

function k6Invocation(k6: string, dir: string, tag: string, entry: string, usersCsv: string, profileName: string, extraEnv: Record<string, string>, raw: boolean): K6Invocation {
  const env: Record<string, string> = {
    PROFILE: profileName,
    BASE_URL: entry,
    USERS_CSV: usersCsv,
    ARCHIVE: defaultArchive(),
    SUMMARY_JSON: join(dir, `k6-${tag}.json`),
    SUMMARY_TXT: join(dir, `k6-${tag}.txt`),
    LOG_SPS: 'on',
    ...extraEnv,
  };
  const args = ['run', '--log-output', `file=${join(dir, `k6-${tag}.log`)}`, '--log-format', 'json'];
  if (raw) args.push('--out', `json=${join(dir, `raw-${tag}.json.gz`)}`);
  for (const [k, v] of Object.entries(env)) args.push('-e', `${k}=${v}`);
  args.push(spsScript());
  return { k6, env, args };
}

async function runK6(inv: K6Invocation, onStart: (pid: number) => void): Promise<number> {
  const child = startInherited(inv.k6, inv.args, {});
  if (child.pid) onStart(child.pid);
  return waitExit(child);
}

function readPaper(file: string): PaperMetrics {
  if (!existsSync(file)) throw new Error(`k6 wrote no summary at ${file}`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { paper: PaperMetrics }).paper;
}

export async function runTest(opts: RunOptions): Promise<Aggregated> {
  const named: Profile = loadProfile(opts.profile);
  const profile: Profile = { ...named, peak: opts.peak ?? named.peak, rampS: opts.rampS ?? named.rampS, holdS: opts.holdS ?? named.holdS };
  const runs = opts.runs ?? profile.runs;
  const betweenS = opts.pauseS ?? profile.betweenRunsS;
  const runId = opts.runId ?? makeRunId(opts.variant, opts.profile, opts.tracing);
  const dir = runDir(runId);
  mkdirSync(dir, { recursive: true });
  phase(`run ${runId}: variant ${opts.variant}, profile ${opts.profile} (peak ${profile.peak}/s, ${profile.rampS}s + ${profile.holdS}s), ${runs} run(s), ${betweenS}s apart -> ${dir}`);

  // The spec as run: resolved (extends merged), with the tracing override if any.
  const spec = loadVariant(opts.variant);
  if (opts.tracing) spec.tracing = { ...spec.tracing, enabled: opts.tracing === 'on' };
  writeFileSync(join(dir, 'spec.yaml'), stringify(spec));
  const preset = join(variantsDir(), `${opts.variant}.yaml`);
  if (existsSync(preset)) copyFileSync(preset, join(dir, 'spec.source.yaml'));

  const k6 = await k6Path();
  const machine = machineFacts(await k6Version(k6));
  writeFileSync(join(dir, 'machine.json'), JSON.stringify(machine, null, 2));

  const before = await variantStatus().catch(() => null);
  const wasUp = before !== null && isUp(before, opts.variant) && !opts.tracing;
  phase(wasUp ? `variant ${opts.variant} already up` : `bringing up ${opts.variant}`);
  if (!wasUp) await variantUp(opts.tracing ? join(dir, 'spec.yaml') : opts.variant);
  const upTarget = opts.tracing ? join(dir, 'spec.yaml') : opts.variant;
  let status = await variantStatus();
  const entry = entryUrl(status);
  // The launcher is shared: another user may switch variants under us. Re-assert ours before
  // each phase (a no-op when it is still up) and flag runs during which it changed.
  const ensureUp = async (): Promise<void> => {
    const now = await variantStatus();
    if (isUp(now, spec.name)) {
      status = now;
      return;
    }
    phase(`variant is now ${now.variant ?? 'none'}: bringing ${opts.variant} back up`);
    await variantUp(upTarget);
    status = await variantStatus();
  };
  phase(`entry ${entry}; processes: ${status.processes.map((p) => `${p.name}(${p.pid ?? '-'})`).join(' ')}; servers: ${status.servers.map((s) => s.name).join(' ')}`);

  const meta: TestMeta = {
    runId,
    variant: opts.variant,
    profileName: opts.profile,
    profile: { ...profile, runs, betweenRunsS: betweenS },
    topology: spec.topology,
    replicas: spec.replicas as Record<string, number>,
    tracing: spec.tracing.enabled,
    entry,
    startedAt: new Date().toISOString(),
    machine,
    apdexTMs: opts.apdexTMs ?? 800,
  };
  writeFileSync(join(dir, 'meta.json'), JSON.stringify(meta, null, 2));

  const usersCsv = join(dir, 'users.csv');
  phase(`seeding ${profile.students} students -> ${usersCsv}`);
  await seedStudents(profile.students, usersCsv);

  // Everything the k6 runs need beyond the profile name: overrides are explicit env values.
  const runEnv: Record<string, string> = {
    PEAK: String(profile.peak),
    RAMP_S: String(profile.rampS),
    HOLD_S: String(profile.holdS),
    // A sync variant's 202 (reply timed out, graded later) is not the feedback the student waited for.
    REPLY: spec.reply,
  };
  if (opts.apdexTMs) runEnv.APDEX_T_MS = String(opts.apdexTMs);
  // Warm-up: a few SPS, not measured; a second try if the variant was switched meanwhile.
  let warmPaper: PaperMetrics | null = null;
  for (let attempt = 1; attempt <= 2 && (warmPaper === null || warmPaper.sps.OK === 0); attempt++) {
    await ensureUp();
    phase(`warm-up (a few SPS, not measured)${attempt > 1 ? ', second try' : ''}`);
    const warm = k6Invocation(k6, dir, 'warmup', entry, usersCsv, 'smoke', { PEAK: '1', RAMP_S: '1', HOLD_S: '2', PAUSE_S: '0.1', THRESHOLDS: 'off', LOG_SPS: 'off', REPLY: spec.reply }, false);
    await runK6(warm, () => undefined);
    warmPaper = readPaper(warm.env.SUMMARY_JSON);
  }
  if (!warmPaper || warmPaper.sps.OK === 0) {
    throw new Error(`warm-up failed: no SPS succeeded at ${entry} (OK ${warmPaper?.OK}, KO ${warmPaper?.KO}, unexpected ${warmPaper?.unexpected}); see ${join(dir, 'k6-warmup.txt')}`);
  }
  await resetProductions();

  // The measured window starts now (traces/ reads it from meta.json / aggregated.json).
  meta.startedAt = new Date().toISOString();
  writeFileSync(join(dir, 'meta.json'), JSON.stringify(meta, null, 2));
  let groups = groupsOf(status);
  const sampler = new ResourceSampler(() => groups);
  sampler.start();
  const rapl = raplDomains();
  const records: RunRecord[] = [];
  let retriesLeft = opts.retrySwitched ?? 2;
  try {
    for (let r = 1; r <= runs; r++) {
      await ensureUp();
      groups = groupsOf(status);
      const startedAt = new Date().toISOString();
      const restartsBefore = restartsOf(status);
      const identityBefore = fingerprint(status);
      const loadBefore = loadavg()[0];
      phase(`run ${r}/${runs}: k6 (profile ${opts.profile}) against ${entry}`);
      const inv = k6Invocation(k6, dir, `run-${r}`, entry, usersCsv, opts.profile, runEnv, Boolean(opts.raw));
      const energyStart = readEnergyUj(rapl);
      const code = await runK6(inv, (pid) => {
        groups = [...groupsOf(status), { name: K6_GROUP, role: 'load', pid }];
        void sampler.mark(r);
      });
      await sampler.mark(r);
      const energyEnd = readEnergyUj(rapl);
      groups = groupsOf(status);
      await sampler.mark(0);

      const paper = readPaper(inv.env.SUMMARY_JSON);
      const samples = await extractSpsSamples(join(dir, `k6-run-${r}.log`), join(dir, `sps-samples-run-${r}.jsonl`));
      const loadFromMs = await loadStartMs(join(dir, `k6-run-${r}.log`));
      const resources = summarizeResources(sampler.samples.filter((s) => s.run === r), machine.memBytes, DEFAULT_VALIDITY.k6SaturationPct, loadFromMs);
      const after = await variantStatus();
      const validity = judgeRun({ droppedIterations: paper.droppedIterations, k6ExitCode: code, resources, variantChanged: fingerprint(after) !== identityBefore });
      const restarts = Object.fromEntries(
        Object.entries(restartsOf(after)).map(([k, v]) => [k, v - (restartsBefore[k] ?? 0)]).filter(([, d]) => (d as number) > 0),
      );
      const record: RunRecord = {
        run: r,
        startedAt,
        endedAt: new Date().toISOString(),
        k6ExitCode: code,
        valid: validity.valid,
        reasons: validity.reasons,
        paper,
        resources,
        derived: {
          cpuSPerOk: paper.OK > 0 ? resources.variantCpuS / paper.OK : null,
          machineCpuSPerOk: paper.OK > 0 ? resources.machineCpuSButK6 / paper.OK : null,
          energyWh: energyWh(energyStart, energyEnd),
        },
        restarts,
        // The machine is shared: the 1-min load average says how busy it was besides us.
        loadAvg1: { before: loadBefore, after: loadavg()[0] },
      };
      writeFileSync(join(dir, `run-${r}.json`), JSON.stringify(record, null, 2));
      const onlySwitched = !record.valid && record.reasons.every((x) => x.startsWith('the variant was switched'));
      if (onlySwitched && retriesLeft > 0) {
        retriesLeft--;
        // Keep the discarded attempt apart: its record renamed, its samples labelled -r.
        renameSync(join(dir, `run-${r}.json`), join(dir, `run-${r}.discarded-${Date.now()}.json`));
        for (const sample of sampler.samples) if (sample.run === r) sample.run = -r;
        phase(`run ${r}/${runs}: the variant changed under us (another launcher user); repeating it (${retriesLeft} retries left)`);
        await resetProductions();
        r--;
        continue;
      }
      records.push(record);
      phase(
        `run ${r}/${runs} ${record.valid ? 'VALID' : 'INVALID: ' + record.reasons.join('; ')} — OK ${paper.OK} KO ${paper.KO} RAC ${pct(paper.RAC)} SPS EFR ${pct(paper.sps.EFR)}, ${samples} SPS samples, variant CPU ${resources.variantCpuS.toFixed(1)} s (machine but k6 ${resources.machineCpuSButK6.toFixed(1)} s), k6 CPU max ${resources.k6CpuMaxPct.toFixed(0)}%`,
      );
      phase('deleting productions (db reset)');
      await resetProductions();
      if (r < runs) {
        phase(`pause ${betweenS}s before the next run`);
        await sleep(betweenS * 1000);
      }
    }
  } finally {
    const all = await sampler.stop();
    writeResources(dir, all);
    if (!wasUp && !opts.keepUp) {
      phase(`bringing ${opts.variant} down`);
      await variantDown();
    }
  }

  meta.endedAt = records.length ? records[records.length - 1].endedAt : new Date().toISOString();
  writeFileSync(join(dir, 'meta.json'), JSON.stringify(meta, null, 2));
  const aggregated: Aggregated = {
    schema: 'shellgrade.bench-aggregated/1',
    meta,
    runs: records.length,
    validRuns: records.filter((r) => r.valid).length,
    valid: records.every((r) => r.valid),
    invalidReasons: records.flatMap((r) => r.reasons.map((reason) => `run ${r.run}: ${reason}`)),
    paper: aggregateRuns(records.map((r) => r.paper)),
    resources: aggregateRuns(records.map((r) => ({ ...r.resources, ...r.derived }))),
  };
  writeFileSync(join(dir, 'aggregated.json'), JSON.stringify(aggregated, null, 2));
  phase(`wrote ${join(dir, 'aggregated.json')} (${aggregated.validRuns}/${aggregated.runs} runs VALID)`);
  return aggregated;
}

function pct(v: number | null): string {
  return v === null ? 'n/a' : `${(100 * v).toFixed(1)}%`;
}
