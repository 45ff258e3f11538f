// Run configuration of scenario R: the options file (k6/lib/options.js, written by the runner)
// on top of a named profile from k6/profiles.json.
import { checkSteps, scheduleS, stepSchedule, stepStages } from './steps.js';
import { booleanOption, numberOption, urlOption } from './options.js';

/**
 * @param options  the options file's fields (readOptions; {} = every default)
 * @param profiles parsed k6/profiles.json
 */
export function loadConfig(options, profiles) {
  const profile = options.profile || 'smoke';
  const base = profiles[profile];
  if (!base || profile.charAt(0) === '_') {
    throw new Error(`unknown profile "${profile}" (known: ${Object.keys(profiles).filter((k) => k.charAt(0) !== '_').join(', ')})`);
  }
  // gatling-report's Apdex: T = 1.5 s, frustrated past 4T = 6 s, over every request.
  const apdexTMs = numberOption(options, 'apdexTMs', 1500);
  const cfg = {
    profile,
    baseUrl: urlOption(options, 'baseUrl', 'http://127.0.0.1:3000'),
    origin: options.origin || 'http://localhost:4200',
    peak: numberOption(options, 'peak', base.peak),
    rampS: numberOption(options, 'rampS', base.rampS),
    holdS: numberOption(options, 'holdS', base.holdS),
    pauseS: numberOption(options, 'pauseS', base.pauseS),
    // Suites bound it lower (stress): k6 pre-allocates VUs for peak x (pauses + timeout).
    timeoutS: numberOption(options, 'timeoutS', base.timeoutS || 60),
    apdexTMs,
    apdexFMs: numberOption(options, 'apdexFMs', 4 * apdexTMs),
    thresholds: booleanOption(options, 'thresholds', Boolean(base.thresholds)),
    logSps: booleanOption(options, 'logSps', false),
    // One line per request and per iteration start (the suites' timelines and per-step tables).
    logRequests: booleanOption(options, 'logRequests', false),
    reply: options.reply || 'sync',
    pollS: numberOption(options, 'pollS', 1),
    pollMaxS: numberOption(options, 'pollMaxS', 8),
    // Client fidelity (benchmarks/README.md, "Profiles"): Gatling gives each virtual user its own
    // connections, k6 reuses a VU's connections across the users it plays unless told not to.
    connectionReuse: booleanOption(options, 'connectionReuse', base.connectionReuse !== false),
    arrivals: options.arrivals || base.arrivals || 'even',
    oversample: numberOption(options, 'oversample', 10),
    // A student told "busy, retry in N s" (503 + Retry-After) waits N s and submits again, up to maxRetries times.
    honourRetryAfter: booleanOption(options, 'honourRetryAfter', Boolean(base.honourRetryAfter)),
    maxRetries: numberOption(options, 'maxRetries', base.maxRetries === undefined ? 3 : base.maxRetries),
    // Whose client plays the users: scenario R (this harness's, scenario-r.js) or the original
    // ShellOnYou load test's (scenario-original.js), and the quiet spell before its load starts.
    client: base.client || 'r',
    quietS: base.quietS === undefined ? 0 : base.quietS,
  };
  if (base.suite) applySuite(cfg, options, base.suite);
  if (!(cfg.peak >= MIN_RATE)) throw new Error(`peak must be >= ${MIN_RATE} iteration/s`);
  rateUnitS(cfg.peak); // refuses a rate finer than a hundredth
  if (cfg.reply !== 'sync' && cfg.reply !== 'async') throw new Error(`reply must be sync or async, got "${cfg.reply}"`);
  if (cfg.arrivals !== 'even' && cfg.arrivals !== 'exponential') throw new Error(`arrivals must be even or exponential, got "${cfg.arrivals}"`);
  if (cfg.oversample < 2) throw new Error('oversample must be >= 2');
  if (cfg.client !== 'r' && cfg.client !== 'original') throw new Error(`client must be r or original, got "${cfg.client}"`);
  if (cfg.client === 'original' && (cfg.honourRetryAfter || cfg.suite)) throw new Error("the original's client never retries and injects one step per run: no honourRetryAfter, no suite");
  if (!(cfg.quietS >= 0)) throw new Error('quietS must be >= 0');
  return cfg;
}

/**
 * A suite profile (`suite: {kind, steps, transitionS}`) drives the load by steps instead of
 * ramp + hold: the options' steps (computed by the runner: a soak's rate from the calibrated
 * saturation, a scaled spike) or the profile's steps; a soak without steps holds peak for soakS.
 * The whole schedule counts as the `hold` stage (rampS 0); peak is the highest step rate (VU sizing).
 */
function applySuite(cfg, options, suite) {
  const steps = options.steps || suite.steps || (suite.kind === 'soak' ? [{ rate: cfg.peak, holdS: suite.soakS }] : null);
  cfg.suite = suite.kind;
  cfg.transitionS = numberOption(options, 'transitionS', suite.transitionS === undefined ? 5 : suite.transitionS);
  if (cfg.transitionS < 1) throw new Error('transitionS must be >= 1 s (k6 ramps between step rates)');
  cfg.steps = checkSteps(steps);
  cfg.schedule = stepSchedule(cfg.steps, cfg.transitionS);
  cfg.peak = Math.max.apply(null, cfg.steps.map((s) => s.rate));
  cfg.rampS = 0;
  cfg.holdS = scheduleS(cfg.schedule);
}

/** The lowest arrival rate a run may ask for (the scale model's loads go below 1 it/s). */
export const MIN_RATE = 0.1;

/**
 * The time unit an arrival rate is counted in: k6's arrival-rate targets are whole iterations per
 * timeUnit, so 1.5 it/s is 15 per 10 s. Whole rates keep 1 s (the paper's profiles).
 */
export function rateUnitS(rate) {
  for (const unit of [1, 10, 100]) {
    if (Math.abs(rate * unit - Math.round(rate * unit)) < 1e-6) return unit;
  }
  throw new Error(`an arrival rate is a multiple of 0.01 iteration/s, got ${rate}`);
}

/** Seconds one R iteration lasts at least: five pauses (requests take extra). */
export function minIterationS(cfg) {
  return 5 * cfg.pauseS;
}

/**
 * Full request timeouts one iteration's VU is budgeted for, pre-allocated and at most. Overload
 * suites keep many slowed iterations in flight at once: at 128 it/s naked-mon-async timed out
 * 1.7 requests per iteration and k6 dropped 310 arrivals while still growing its VUs (2,425 of
 * 3,456 initialised), so there the pre-allocation covers two timeouts and the maximum four.
 */
export function timeoutsCovered(cfg) {
  return cfg.suite === 'stress' || cfg.suite === 'spike' ? { pre: 2, max: 4 } : { pre: 1, max: 2 };
}

/**
 * Open-model injection (paper §IV-B): arrivals ramp 1 -> peak per second (from peak itself when
 * it is below 1), then hold peak; counted per rateUnitS seconds when peak is not whole.
 * VUs are sized from peak x iteration duration. k6 drops an arrival when no initialised VU is
 * free at that instant (it grows towards maxVUs only in the background), so the pre-allocation
 * already covers iterations slowed by one full request timeout; maxVUs a second one.
 * Dropped iterations make a run INVALID.
 */
export function scenarioOptions(cfg) {
  const busyS = minIterationS(cfg) + 2;
  const t = timeoutsCovered(cfg);
  const preAllocatedVUs = Math.max(2, Math.ceil(cfg.peak * (busyS + t.pre * cfg.timeoutS)));
  const maxVUs = Math.max(preAllocatedVUs, Math.ceil(cfg.peak * (busyS + t.max * cfg.timeoutS)));
  // Exponential arrivals: ticks `oversample` times faster, each a user with probability 1/oversample (scenario-r.js).
  const tick = cfg.arrivals === 'exponential' ? cfg.oversample : 1;
  // Suites' steps are whole it/s (checkSteps): counted per second.
  const unitS = cfg.steps ? 1 : rateUnitS(cfg.peak);
  const perUnit = (rate) => Math.round(rate * tick * unitS);
  const startRate = cfg.steps ? cfg.steps[0].rate * tick : perUnit(Math.min(1, cfg.peak));
  const stages = cfg.steps
    ? stepStages(cfg.steps, cfg.transitionS, tick)
    : [
        { target: perUnit(cfg.peak), duration: `${cfg.rampS}s` },
        { target: perUnit(cfg.peak), duration: `${cfg.holdS}s` },
      ];
  // A VU beyond the iterations the schedule starts would never run one, yet k6 initialises each
  // pre-allocated VU before the load (~5 ms of client CPU a VU here: 11,136 VUs for a 40 s run at
  // 128/s took 55 s to start, for 4,485 iterations).
  const most = iterationsScheduled(startRate, stages, unitS);
  return {
    executor: 'ramping-arrival-rate',
    startRate,
    timeUnit: `${unitS}s`,
    preAllocatedVUs: Math.min(preAllocatedVUs, most),
    maxVUs: Math.min(maxVUs, most),
    stages,
    // Let started users finish R (the paper lets every VU complete its scenario).
    gracefulStop: `${Math.ceil(minIterationS(cfg) + 2 * cfg.timeoutS)}s`,
  };
}

/**
 * Iterations an arrival-rate schedule can start at most: the area under its rate, each stage a
 * linear ramp from the previous target (k6 rounds per second: 1 % and one per stage of margin).
 * Rates count per `unitS` seconds (the scenario's timeUnit).
 */
export function iterationsScheduled(startRate, stages, unitS = 1) {
  let from = startRate;
  let area = 0;
  for (const st of stages) {
    area += ((from + st.target) / 2 / unitS) * parseFloat(st.duration);
    from = st.target;
  }
  return Math.max(2, Math.ceil(area * 1.01) + stages.length);
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
