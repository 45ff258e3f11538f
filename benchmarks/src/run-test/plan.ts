// Step plan: the profile with its overrides, the results folder, the spec as run, the machine's
// facts, the placement and testbed plans, and the manifest (provenance). Its TestPlan is what every
// later step reads and none changes.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadVariant, variantsDir } from '@shellgrade/variant';
import { stringify } from 'yaml';
import { copyBaselineInto } from '../baseline';
import { DEFAULT_POWER_MODEL } from '../energy';
import type { SpsOverrides } from '../k6-run';
import { k6Path, k6Version } from '../k6-tool';
import { phase } from '../log';
import { writeRunManifest } from '../provenance/record';
import { machineFacts } from '../machine';
import { resultsDir, runDir } from '../paths';
import { loadProfile, type Profile } from '../profiles';
import { calibratedSaturation, resolveSuite } from '../suites/resolve';
import type { TestMeta } from '../types';
import { detectCpuset } from '../placement/detect';
import { planPlacement, placementText, type PlacementPlan } from '../placement/plan';
import { detectCpuQuota } from '../placement/cpu-quota';
import { planTestbed, sutCpuCount, testbedText } from '../placement/testbed';
import { makeRunId, type RunOptions, type TestPlan } from './steps';

/** Profile with overrides, results folder, the spec as run, machine facts, baseline copy. */
export async function planTest(opts: RunOptions): Promise<TestPlan> {
  if (loadProfile(opts.profile).sweep) throw new Error(`profile ${opts.profile} is a closed-model sweep (paper 001): npm run bench -- sweep --variant ${opts.variant} --profile ${opts.profile}`);
  const named = suiteProfile(loadProfile(opts.profile), opts);
  // A suite's injection comes from its resolved steps; otherwise --peak/--ramp-s/--hold-s override it.
  const injection = named.suite ? {} : { peak: opts.peak ?? named.peak, rampS: opts.rampS ?? named.rampS, holdS: opts.holdS ?? named.holdS };
  const profile: Profile = {
    ...named,
    ...injection,
    connectionReuse: opts.connectionReuse ?? named.connectionReuse,
    arrivals: opts.arrivals ?? named.arrivals,
    ...(opts.timeoutS !== undefined ? { timeoutS: opts.timeoutS } : {}),
  };
  const runs = opts.runs ?? profile.runs;
  const betweenS = opts.pauseS ?? profile.betweenRunsS;
  const runId = opts.runId ?? makeRunId(opts.variant, opts.profile, opts.tracing, undefined, opts.kdfCost);
  const dir = runDir(runId);
  mkdirSync(dir, { recursive: true });
  phase(`run ${runId}: variant ${opts.variant}, profile ${opts.profile} (peak ${profile.peak}/s, ${profile.rampS}s + ${profile.holdS}s, ${profile.arrivals} arrivals, connection reuse ${profile.connectionReuse ? 'on' : 'off'}), ${runs} run(s), ${betweenS}s apart -> ${dir}`);

  // The spec as run: resolved (extends merged), with the tracing override if any.
  const spec = loadVariant(opts.variant);
  if (opts.tracing) spec.tracing = { ...spec.tracing, enabled: opts.tracing === 'on' };
  if (opts.kdfCost !== undefined) spec.auth = { ...spec.auth, kdfCost: opts.kdfCost };
  writeFileSync(join(dir, 'spec.yaml'), stringify(spec));
  const preset = join(variantsDir(), `${opts.variant}.yaml`);
  if (existsSync(preset)) copyFileSync(preset, join(dir, 'spec.source.yaml'));

  const k6 = await k6Path();
  const machine = machineFacts(await k6Version(k6));
  writeFileSync(join(dir, 'machine.json'), JSON.stringify(machine, null, 2));
  const baseline = copyBaselineInto(dir);
  const detection = detectCpuset();
  const planned = planPlacement(opts.placement ?? {}, { profileName: opts.profile, suiteKind: profile.suite?.kind, findings: opts.findings }, detection);
  phase(`placement ${placementText(planned)}`);
  // The scale model's s fits the CPUs the system under test has: its cpuset's, or the machine's.
  const quotaDetection = detectCpuQuota();
  const testbed = planTestbed(opts.placement?.testbed, opts.variant, sutCpuCount(planned), quotaDetection, planned.state === 'on' ? planned.cgroup : undefined);
  const placementPlan: PlacementPlan = { ...planned, testbed };
  phase(`testbed ${testbedText(testbed)}`);
  phase(baseline ? `grader-only baseline (sandboxed) copied into the run: ${baseline.best.gradingsPerS} gradings/s (${baseline.best.label})` : 'no sandboxed grader-only baseline (results/grader-baseline/latest.json)');

  const meta: TestMeta = {
    runId,
    // A spec given as a file (bench replay) is named by its name field, not by its path.
    variant: spec.name,
    profileName: opts.profile,
    profile: { ...profile, runs, betweenRunsS: betweenS },
    topology: spec.topology,
    transport: spec.transport,
    replicas: spec.replicas as Record<string, number>,
    tracing: spec.tracing.enabled,
    kdfCost: spec.auth.kdfCost,
    entry: '',
    startedAt: new Date().toISOString(),
    machine,
    apdexTMs: opts.apdexTMs ?? 1500,
    baseline,
    powerModel: opts.powerModel ?? DEFAULT_POWER_MODEL,
    placement: placementPlan,
  };
  // An override of the preset runs the spec as written into the run folder.
  const upTarget = opts.tracing || opts.kdfCost !== undefined ? join(dir, 'spec.yaml') : opts.variant;
  const k6Overrides: SpsOverrides = {
    peak: profile.peak,
    rampS: profile.rampS,
    holdS: profile.holdS,
    // A sync variant's 202 (reply timed out, graded later) is not the feedback the student waited for.
    reply: spec.reply,
    connectionReuse: profile.connectionReuse,
    arrivals: profile.arrivals,
  };
  if (opts.apdexTMs) k6Overrides.apdexTMs = opts.apdexTMs;
  if (profile.timeoutS !== undefined) k6Overrides.timeoutS = profile.timeoutS;
  if (profile.suite) {
    // The steps as resolved (a soak's rate, --peak scaling) and one log line per request.
    Object.assign(k6Overrides, { steps: profile.suite.steps, transitionS: profile.suite.transitionS, logRequests: true });
    phase(`suite ${profile.suite.kind}: steps ${profile.suite.steps!.map((st) => `${st.rate}/s × ${st.holdS}s`).join(', ')} (${profile.suite.transitionS}s between steps)`);
  }
  return {
    opts,
    profile,
    runs,
    betweenS,
    dir,
    meta,
    specName: spec.name,
    reply: spec.reply,
    dispatch: spec.dispatch,
    kdfCost: spec.auth.kdfCost,
    upTarget,
    k6,
    usersCsv: join(dir, 'users.csv'),
    k6Overrides,
    placementPlan,
    cpuset: detection.available ? detection.flavour : null,
    cpuQuota: quotaDetection.available ? quotaDetection.flavour : null,
  };
}

/** A suite profile made concrete: a soak's rate from --peak, --saturation or the variant's newest calibration. */
function suiteProfile(named: Profile, opts: RunOptions): Profile {
  if (!named.suite) return named;
  if (named.suite.kind !== 'soak' && (opts.rampS !== undefined || opts.holdS !== undefined)) throw new Error(`--ramp-s/--hold-s do not apply to a ${named.suite.kind} suite (its steps are in k6/profiles.json)`);
  const calibrated = named.suite.kind === 'soak' && opts.peak === undefined && opts.saturation === undefined ? calibratedSaturation(resultsDir(), opts.variant) : null;
  if (calibrated) phase(`soak: saturation ${calibrated.rate}/s from ${calibrated.file}`);
  return resolveSuite(named, { variant: opts.variant, peak: opts.peak, saturation: opts.saturation, holdS: opts.holdS }, calibrated);
}

/** manifest.json — commit, resolved spec, protocol, versions, machine, seeds (provenance/manifest.ts). */
export async function recordProvenance(plan: TestPlan): Promise<void> {
  const m = plan.meta;
  await writeRunManifest({ dir: plan.dir, runId: m.runId, startedAt: new Date().toISOString(), variant: m.variant, profileName: m.profileName, overrides: plan.opts, profile: m.profile, machine: m.machine, placement: plan.placementPlan });
}
