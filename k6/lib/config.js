// Run configuration from the environment (k6 `-e NAME=value` or exported variables) on top of
// a named profile from k6/profiles.json.
import { checkSteps, scheduleS, stepSchedule, stepStages } from './steps.js';

export function numberEnv(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

/**
 * @param env      __ENV
 * @param profiles parsed k6/profiles.json
 */
export function loadConfig(env, profiles) {
  const profile = env.PROFILE || 'smoke';
  const base = profiles[profile];
  if (!base || profile.charAt(0) === '_') {
    throw new Error(`unknown PROFILE "${profile}" (known: ${Object.keys(profiles).filter((k) => k.charAt(0) !== '_').join(', ')})`);
  }
  // gatling-report's Apdex: T = 1.5 s, frustrated past 4T = 6 s, over every request.
  const apdexTMs = numberEnv(env, 'APDEX_T_MS', 1500);
  const cfg = {
    profile,
    baseUrl: (env.BASE_URL || 'http://127.0.0.1:3000').replace(/\/+$/, ''),
    origin: env.ORIGIN || 'http://localhost:4200',
    peak: numberEnv(env, 'PEAK', base.peak),
    rampS: numberEnv(env, 'RAMP_S', base.rampS),
    holdS: numberEnv(env, 'HOLD_S', base.holdS),
    pauseS: numberEnv(env, 'PAUSE_S', base.pauseS),
    // Suites bound it lower (stress): k6 pre-allocates VUs for peak x (pauses + timeout).
    timeoutS: numberEnv(env, 'TIMEOUT_S', base.timeoutS || 60),
    apdexTMs,
    apdexFMs: numberEnv(env, 'APDEX_F_MS', 4 * apdexTMs),
    thresholds: env.THRESHOLDS ? env.THRESHOLDS === 'on' : Boolean(base.thresholds),
    logSps: env.LOG_SPS === 'on',
    // One line per request and per iteration start (the suites' timelines and per-step tables).
    logRequests: env.LOG_REQUESTS === 'on',
    reply: env.REPLY || 'sync',
    pollS: numberEnv(env, 'POLL_S', 1),
    pollMaxS: numberEnv(env, 'POLL_MAX_S', 8),
    // Client fidelity (benchmarks/README.md, "Profiles"): Gatling gives each virtual user its own
    // connections, k6 reuses a VU's connections across the users it plays unless told not to.
    connectionReuse: env.CONNECTION_REUSE ? env.CONNECTION_REUSE === 'on' : base.connectionReuse !== false,
    arrivals: env.ARRIVALS || base.arrivals || 'even',
    oversample: numberEnv(env, 'ARRIVALS_OVERSAMPLE', 10),
    // A student told "busy, retry in N s" (503 + Retry-After) waits N s and submits again, up to maxRetries times.
    honourRetryAfter: env.HONOUR_RETRY_AFTER ? env.HONOUR_RETRY_AFTER === 'on' : Boolean(base.honourRetryAfter),
    maxRetries: numberEnv(env, 'MAX_RETRIES', base.maxRetries === undefined ? 3 : base.maxRetries),
  };
  if (base.suite) applySuite(cfg, env, base.suite);
  if (cfg.peak < 1) throw new Error('PEAK must be >= 1 iteration/s');
  if (cfg.reply !== 'sync' && cfg.reply !== 'async') throw new Error(`REPLY must be sync or async, got "${cfg.reply}"`);
  if (cfg.arrivals !== 'even' && cfg.arrivals !== 'exponential') throw new Error(`ARRIVALS must be even or exponential, got "${cfg.arrivals}"`);
  if (cfg.oversample < 2) throw new Error('ARRIVALS_OVERSAMPLE must be >= 2');
  return cfg;
}

/**
 * A suite profile (`suite: {kind, steps, transitionS}`) drives the load by steps instead of
 * ramp + hold: STEPS (JSON, computed by the runner: a soak's rate from the calibrated saturation,
 * a scaled spike) or the profile's steps; a soak without steps holds PEAK for soakS. The whole
 * schedule counts as the `hold` stage (rampS 0); peak is the highest step rate (VU sizing).
 */
function applySuite(cfg, env, suite) {
  const steps = env.STEPS ? JSON.parse(env.STEPS) : suite.steps || (suite.kind === 'soak' ? [{ rate: cfg.peak, holdS: suite.soakS }] : null);
  cfg.suite = suite.kind;
  cfg.transitionS = numberEnv(env, 'TRANSITION_S', suite.transitionS === undefined ? 5 : suite.transitionS);
  if (cfg.transitionS < 1) throw new Error('TRANSITION_S must be >= 1 s (k6 ramps between step rates)');
  cfg.steps = checkSteps(steps);
  cfg.schedule = stepSchedule(cfg.steps, cfg.transitionS);
  cfg.peak = Math.max.apply(null, cfg.steps.map((s) => s.rate));
  cfg.rampS = 0;
  cfg.holdS = scheduleS(cfg.schedule);
}

/** Seconds one R iteration lasts at least: five pauses (requests take extra). */
export function minIterationS(cfg) {
  return 5 * cfg.pauseS;
}

/**
 * Open-model injection (paper §IV-B): arrivals ramp 1 -> peak per second, then hold peak.
 * VUs are sized from peak x iteration duration. k6 drops an arrival when no initialised VU is
 * free at that instant (it grows towards maxVUs only in the background), so the pre-allocation
 * already covers iterations slowed by one full request timeout; maxVUs a second one.
 * Dropped iterations make a run INVALID.
 */
export function scenarioOptions(cfg) {
  const busyS = minIterationS(cfg) + 2;
  const preAllocatedVUs = Math.max(2, Math.ceil(cfg.peak * (busyS + cfg.timeoutS)));
  const maxVUs = Math.max(preAllocatedVUs, Math.ceil(cfg.peak * (busyS + 2 * cfg.timeoutS)));
  // Exponential arrivals: ticks `oversample` times faster, each a user with probability 1/oversample (scenario-r.js).
  const tick = cfg.arrivals === 'exponential' ? cfg.oversample : 1;
  return {
    executor: 'ramping-arrival-rate',
    startRate: cfg.steps ? cfg.steps[0].rate * tick : tick,
    timeUnit: '1s',
    preAllocatedVUs,
    maxVUs,
    stages: cfg.steps
      ? stepStages(cfg.steps, cfg.transitionS, tick)
      : [
          { target: cfg.peak * tick, duration: `${cfg.rampS}s` },
          { target: cfg.peak * tick, duration: `${cfg.holdS}s` },
        ],
    // Let started users finish R (the paper lets every VU complete its scenario).
    gracefulStop: `${Math.ceil(minIterationS(cfg) + 2 * cfg.timeoutS)}s`,
  };
}

/** Pass/fail thresholds of the smoke profile (k6 exits 99 when one is crossed). */
export function thresholdOptions(cfg) {
  if (!cfg.thresholds) return {};
  return {
    checks: ['rate==1'],
    sg_ko: ['count==0'],
    sg_ok_sps: ['count>0'],
    dropped_iterations: ['count==0'],
  };
}
