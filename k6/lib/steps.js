// Step schedules of the suites (load, soak, stress, spike: benchmarks/README.md, "Suites"). A
// suite is a list of steps {rate, holdS}; every step but the first starts with a short
// transition ramp from the previous rate, then holds its rate. Pure module: k6 builds its
// ramping-arrival-rate stages from it, the runner (benchmarks/src/suites) its step windows.

export const SUITE_KINDS = ['load', 'soak', 'stress', 'spike'];

/** Throws unless `steps` is a non-empty list of {rate >= 1 (integer: k6 rates are), holdS > 0}. */
export function checkSteps(steps) {
  if (!Array.isArray(steps) || steps.length === 0) throw new Error('steps must be a non-empty list of {rate, holdS}');
  for (const s of steps) {
    if (!s || !Number.isInteger(s.rate) || s.rate < 1 || !(s.holdS > 0)) {
      throw new Error(`a step needs an integer rate >= 1 and holdS > 0, got ${JSON.stringify(s)}`);
    }
  }
  return steps;
}

/**
 * Where each step lies, in seconds from the start of the load: step i covers [fromS, toS), its
 * transition ramp [fromS, holdFromS) (none for the first step), its held rate [holdFromS, toS).
 */
export function stepSchedule(steps, transitionS) {
  let t = 0;
  return steps.map((s, i) => {
    const ramp = i === 0 ? 0 : transitionS;
    const fromS = t;
    t += ramp + s.holdS;
    return { index: i, rate: s.rate, fromS, holdFromS: fromS + ramp, toS: t };
  });
}

/**
 * ramping-arrival-rate stages: the first step starts at its rate (startRate), each later one
 * ramps to its rate over transitionS, then holds. `tick` multiplies rates (exponential arrivals).
 */
export function stepStages(steps, transitionS, tick) {
  const stages = [];
  steps.forEach((s, i) => {
    if (i > 0) stages.push({ target: s.rate * tick, duration: `${transitionS}s` });
    stages.push({ target: s.rate * tick, duration: `${s.holdS}s` });
  });
  return stages;
}

/** The step an instant `elapsedS` after the start of the load falls in (the last one after the end). */
export function stepIndexAt(elapsedS, schedule) {
  for (const s of schedule) if (elapsedS < s.toS) return s.index;
  return schedule.length - 1;
}

/** Length of the whole schedule in seconds. */
export function scheduleS(schedule) {
  return schedule.length ? schedule[schedule.length - 1].toS : 0;
}
