// Paper 003's heterogeneous request mixes (benchmarks/README.md, "Mix"): for each p in `ps`, a
// step of `vus` virtual users sending requests back to back (closed loop, no think time: "as
// many as the system can take"), each request of type r1 with probability p and r2 otherwise.
// Steps run one after the other like a sweep's (k6/lib/sweep.js): ramp, the measured hold
// window, a drain gap. Pure module: k6 builds its scenarios from it, the runner its tables.
import { sweepSchedule, sweepScenarios } from './sweep.js';

export const MIX_PATTERNS = ['aggregation', 'offloading', 'pipeline'];
export const MIX_TYPES = ['r1', 'r2'];

/** Throws unless ps are probabilities, vus a positive integer and the times sane. */
export function checkMix(mix) {
  if (!mix || !Array.isArray(mix.ps) || mix.ps.length === 0) throw new Error('a mix needs ps: a non-empty list of probabilities p(r1)');
  for (const p of mix.ps) if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new Error(`a mix step needs p(r1) in [0, 1], got ${JSON.stringify(p)}`);
  if (!Number.isInteger(mix.vus) || mix.vus < 1) throw new Error(`a mix needs an integer number of VUs >= 1, got ${JSON.stringify(mix.vus)}`);
  if (!(mix.holdS > 0)) throw new Error('a mix needs holdS > 0');
  if (!(mix.rampS >= 0)) throw new Error('a mix needs rampS >= 0');
  return mix;
}

/** The sweep's schedule with the same VUs at every step, each step carrying its p(r1). */
export function mixSchedule(mix, gapS) {
  return sweepSchedule({ vus: mix.ps.map(() => mix.vus), rampS: mix.rampS, holdS: mix.holdS }, gapS).map((s, i) => ({ ...s, p: mix.ps[i] }));
}

export function mixScenarios(schedule, mix, gapS) {
  return sweepScenarios(schedule, { rampS: mix.rampS, holdS: mix.holdS }, gapS);
}

/** r1 with probability p; `u` is uniform in [0, 1). */
export function pickType(p, u) {
  return u < p ? 'r1' : 'r2';
}

/** Per-step, per-type hold-window submetrics the summary must carry (k6 summarises only what a threshold names). */
export function mixThresholds(schedule) {
  const out = {};
  for (const s of schedule) {
    for (const type of MIX_TYPES) {
      const tag = `{step:${s.index},phase:hold,type:${type}}`;
      out[`mix_rt${tag}`] = ['max>=0'];
      out[`mix_ok${tag}`] = ['rate>=0'];
    }
  }
  return out;
}
