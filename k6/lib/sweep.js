// The closed-model thread sweep of paper 001 (benchmarks/README.md, "Sweep"): a step is N
// virtual users (JMeter's threads) sending requests back to back, no think time, ramped from 0
// to N over rampS then held for holdS; steps run one after the other, each `gapS` after the
// previous one ended so its last requests never overlap the next step. Only the hold window is
// measured. Pure module: k6 builds its scenarios from it, the runner (benchmarks/src/sweep) its
// per-step tables.

export const SWEEP_CLASSES = ['s1', 's2'];

/** Throws unless `vus` is a non-empty list of integers >= 1 and the times are sane. */
export function checkSweep(sweep) {
  if (!sweep || !Array.isArray(sweep.vus) || sweep.vus.length === 0) throw new Error('a sweep needs vus: a non-empty list of thread counts');
  for (const n of sweep.vus) if (!Number.isInteger(n) || n < 1) throw new Error(`a sweep step needs an integer number of VUs >= 1, got ${JSON.stringify(n)}`);
  if (!(sweep.holdS > 0)) throw new Error('a sweep needs holdS > 0');
  if (!(sweep.rampS >= 0)) throw new Error('a sweep needs rampS >= 0');
  return sweep;
}

/** Where each step lies, in seconds from the start: [fromS, holdFromS) ramp, [holdFromS, toS) hold, then gapS of drain. */
export function sweepSchedule(sweep, gapS) {
  let t = 0;
  return sweep.vus.map((vus, index) => {
    const fromS = t;
    const holdFromS = fromS + sweep.rampS;
    const toS = holdFromS + sweep.holdS;
    t = toS + gapS;
    return { index, vus, fromS, holdFromS, toS };
  });
}

/** k6 scenarios: one ramping-vus scenario per step, tagged with its step. */
export function sweepScenarios(schedule, sweep, gapS) {
  const scenarios = {};
  for (const s of schedule) {
    const stages = [];
    if (sweep.rampS > 0) stages.push({ target: s.vus, duration: `${sweep.rampS}s` });
    stages.push({ target: s.vus, duration: `${sweep.holdS}s` });
    scenarios[`step_${s.index}`] = {
      executor: 'ramping-vus',
      startVUs: sweep.rampS > 0 ? 0 : s.vus,
      stages,
      startTime: `${s.fromS}s`,
      // Iterations still running at the end finish within the gap (then they are cut).
      gracefulRampDown: `${gapS}s`,
      gracefulStop: `${gapS}s`,
      tags: { step: String(s.index) },
    };
  }
  return scenarios;
}

/** ramp | hold | drain of a request started `elapsedS` after its step's start. */
export function phaseAt(elapsedS, sweep) {
  if (elapsedS < sweep.rampS) return 'ramp';
  if (elapsedS < sweep.rampS + sweep.holdS) return 'hold';
  return 'drain';
}

/** Per-step hold-window submetrics the summary must carry (k6 only summarises a submetric a threshold names). */
export function sweepThresholds(schedule) {
  const out = {};
  for (const s of schedule) {
    const tag = `{step:${s.index},phase:hold}`;
    out[`http_req_duration${tag}`] = ['max>=0'];
    out[`http_reqs${tag}`] = ['count>=0'];
    out[`http_req_failed${tag}`] = ['rate>=0'];
  }
  return out;
}
