// Run configuration from the environment (k6 `-e NAME=value` or exported variables) on top of
// a named profile from k6/profiles.json.

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
    timeoutS: numberEnv(env, 'TIMEOUT_S', 60),
    apdexTMs,
    apdexFMs: numberEnv(env, 'APDEX_F_MS', 4 * apdexTMs),
    thresholds: env.THRESHOLDS ? env.THRESHOLDS === 'on' : Boolean(base.thresholds),
    logSps: env.LOG_SPS === 'on',
    reply: env.REPLY || 'sync',
    pollS: numberEnv(env, 'POLL_S', 1),
    pollMaxS: numberEnv(env, 'POLL_MAX_S', 8),
    // Client fidelity (benchmarks/README.md, "Profiles"): Gatling gives each virtual user its own
    // connections, k6 reuses a VU's connections across the users it plays unless told not to.
    connectionReuse: env.CONNECTION_REUSE ? env.CONNECTION_REUSE === 'on' : base.connectionReuse !== false,
    arrivals: env.ARRIVALS || base.arrivals || 'even',
    oversample: numberEnv(env, 'ARRIVALS_OVERSAMPLE', 10),
  };
  if (cfg.peak < 1) throw new Error('PEAK must be >= 1 iteration/s');
  if (cfg.reply !== 'sync' && cfg.reply !== 'async') throw new Error(`REPLY must be sync or async, got "${cfg.reply}"`);
  if (cfg.arrivals !== 'even' && cfg.arrivals !== 'exponential') throw new Error(`ARRIVALS must be even or exponential, got "${cfg.arrivals}"`);
  if (cfg.oversample < 2) throw new Error('ARRIVALS_OVERSAMPLE must be >= 2');
  return cfg;
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
    startRate: tick,
    timeUnit: '1s',
    preAllocatedVUs,
    maxVUs,
    stages: [
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
