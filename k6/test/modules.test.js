// Tests of the pure k6 modules, run by k6 itself (they are k6-runtime ES modules):
//   k6 run --quiet k6/test/modules.test.js     (exit 0 = every check passed)
// benchmarks/test/k6-modules.parallel.int.ts runs this file and pins how many checks ran: count a new check there.
import { check } from 'k6';
import { iterationsScheduled, loadConfig, scenarioOptions, thresholdOptions } from '../lib/config.js';
import { OPTIONS_SCHEMA, readOptions } from '../lib/options.js';
import { bucketOf, classify, responseTimeMs, retryAfterS, spsOkStatuses } from '../lib/outcome.js';
import { productionDataJson, spsBody } from '../lib/sps-body.js';
import { newTraceparent, parseTraceparent } from '../lib/traceparent.js';
import { checkSteps, scheduleS, stepIndexAt, stepSchedule, stepStages } from '../lib/steps.js';
import { parseUsersCsv, userFor } from '../lib/users.js';
import { checkSweep, phaseAt, sweepScenarios, sweepSchedule, sweepThresholds } from '../lib/sweep.js';

const profiles = JSON.parse(open(import.meta.resolve('../profiles.json')));

export const options = { iterations: 1, vus: 1, thresholds: { checks: ['rate==1'] } };

function throws(fn) {
  try {
    fn();
    return false;
  } catch (_) {
    return true;
  }
}

export default function () {
  // Outcome and metric arithmetic: benchmarks/test/paper-definitions.spec.ts (Jest).
  check(null, {
    'buckets: 799 / 800 / 1199 / 1200': () =>
      bucketOf(799) === 'lt800' && bucketOf(800) === 'b800_1200' && bucketOf(1199.9) === 'b800_1200' && bucketOf(1200) === 'ge1200',
    'response time counts connecting and TLS, not blocking': () =>
      responseTimeMs({ blocked: 100, connecting: 5, tls_handshaking: 0, duration: 20 }) === 25,
  });

  const tp = newTraceparent();
  const other = newTraceparent();
  check(tp, {
    'traceparent: version 00, 32+16 hex, sampled': (t) => /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/.test(t.header),
    'traceparent: parses back to its ids': (t) => {
      const p = parseTraceparent(t.header);
      return p !== null && p.traceId === t.traceId && p.spanId === t.spanId && p.flags === '01';
    },
    'traceparent: ids differ between calls': (t) => t.traceId !== other.traceId && t.spanId !== other.spanId,
    'traceparent: all-zero or malformed ids are rejected': () =>
      parseTraceparent(`00-${'0'.repeat(32)}-${'1'.repeat(16)}-01`) === null && parseTraceparent('00-abc-def-01') === null,
  });

  const bytes = new Uint8Array([31, 139, 8, 0, 255]);
  const pd = productionDataJson('answer.tgz', bytes.buffer);
  const body = JSON.parse(spsBody({ ex_id: '2', ps_id: '7' }, pd));
  check(body, {
    'SPS body: SPA shape with numeric ids': (b) => b.ex_id === 2 && b.ps_id === 7 && b.production_data.name === 'answer.tgz',
    'SPS body: data maps index to byte value, size matches': (b) =>
      b.production_data.size === 5 && b.production_data.data['0'] === 31 && b.production_data.data['1'] === 139 && b.production_data.data['4'] === 255 && Object.keys(b.production_data.data).length === 5,
  });

  const users = parseUsersCsv('email,password,user_id,ex_id,ps_id\na@x.test,pa,1,2,3\r\nb@x.test,pb,4,2,5\n');
  check(users, {
    'users CSV: parsed rows by header': (u) => u.length === 2 && u[1].email === 'b@x.test' && u[1].ps_id === '5',
    'users: reused round-robin': (u) => userFor(u, 0) === u[0] && userFor(u, 3) === u[1],
    'users CSV: missing column and ragged line rejected': () =>
      throws(() => parseUsersCsv('email,password\na,b\n')) && throws(() => parseUsersCsv('email,password,user_id,ex_id,ps_id\na,b,1\n')),
  });

  const cfg = loadConfig({ profile: 'paper' }, profiles);
  const sc = scenarioOptions(cfg);
  check(sc, {
    'paper profile: 1 -> 200 arrivals/s over 60 s, then 60 s at 200': (s) =>
      s.executor === 'ramping-arrival-rate' && s.startRate === 1 && s.stages[0].target === 200 && s.stages[0].duration === '60s' && s.stages[1].target === 200 && s.stages[1].duration === '60s',
    'paper profile: VUs cover peak x 25 s of pauses': (s) => s.preAllocatedVUs >= 200 * 25 && s.maxVUs > s.preAllocatedVUs,
    'a sync variant expects the SPS feedback (a 202 is KO); an async one its 202': () =>
      cfg.reply === 'sync' &&
      classify(202, spsOkStatuses(cfg.reply), 0, 10, 60000).cause === 'unplanned_status' &&
      classify(201, spsOkStatuses('sync'), 0, 10, 60000).outcome === 'ok' &&
      classify(202, spsOkStatuses(loadConfig({ profile: 'paper', reply: 'async' }, profiles).reply), 0, 10, 60000).outcome === 'ok' &&
      throws(() => loadConfig({ profile: 'paper', reply: 'later' }, profiles)),
    'options override the profile (pauseS for smoke)': () => loadConfig({ profile: 'paper', pauseS: 0.5, peak: 3 }, profiles).pauseS === 0.5,
    'unknown profile and bad numbers are rejected': () =>
      throws(() => loadConfig({ profile: 'nope' }, profiles)) && throws(() => loadConfig({ profile: 'smoke', peak: 'x' }, profiles)) &&
      throws(() => loadConfig({ profile: 'smoke', thresholds: 'on' }, profiles)),
    'smoke profile has CI thresholds, paper has none': () =>
      thresholdOptions(loadConfig({ profile: 'smoke' }, profiles)).sg_ko[0] === 'count==0' && Object.keys(thresholdOptions(cfg)).length === 0,
    'paper profile: like Gatling, no connection reuse between users, evenly spaced arrivals': () =>
      cfg.connectionReuse === false && cfg.arrivals === 'even',
    'VUs never exceed the iterations the schedule starts (findings at 128/s: 10 s ramp + 30 s hold = 4,485, not 11,136)': () => {
      const f = scenarioOptions(loadConfig({ profile: 'small', peak: 128, rampS: 10, holdS: 30, pauseS: 5 }, profiles));
      const most = iterationsScheduled(1, [{ target: 128, duration: '10s' }, { target: 128, duration: '30s' }]);
      return most === Math.ceil((645 + 3840) * 1.01) + 2 && f.preAllocatedVUs === most && f.maxVUs === most && sc.preAllocatedVUs === 200 * (25 + 2 + 60);
    },
    'a rate with tenths counts per 10 s, with hundredths per 100 s, whole ones per second (k6 targets are whole per timeUnit)': () => {
      const tenths = scenarioOptions(loadConfig({ profile: 'small', peak: 1.5 }, profiles));
      const hundredths = scenarioOptions(loadConfig({ profile: 'small', peak: 2.25 }, profiles));
      const whole = scenarioOptions(loadConfig({ profile: 'small', peak: 4 }, profiles));
      return (
        tenths.timeUnit === '10s' && tenths.startRate === 10 && tenths.stages[0].target === 15 && tenths.stages[1].target === 15 &&
        hundredths.timeUnit === '100s' && hundredths.startRate === 100 && hundredths.stages[1].target === 225 &&
        whole.timeUnit === '1s' && whole.startRate === 1 && whole.stages[1].target === 4
      );
    },
    'a rate below 1 it/s starts at itself; below 0.1 or finer than a hundredth it is refused': () => {
      const slow = scenarioOptions(loadConfig({ profile: 'small', peak: 0.5 }, profiles));
      return (
        slow.timeUnit === '10s' && slow.startRate === 5 && slow.stages[1].target === 5 &&
        throws(() => loadConfig({ profile: 'small', peak: 0.05 }, profiles)) && throws(() => loadConfig({ profile: 'small', peak: 1.234 }, profiles))
      );
    },
    'iterations scheduled count per timeUnit: 1.5 it/s as 15 per 10 s over 10 s ramp + 30 s hold': () =>
      iterationsScheduled(10, [{ target: 15, duration: '10s' }, { target: 15, duration: '30s' }], 10) === Math.ceil((12.5 + 45) * 1.01) + 2,
    'exponential arrivals: the executor ticks oversample x faster': () => {
      const e = scenarioOptions(loadConfig({ profile: 'paper', arrivals: 'exponential' }, profiles));
      return e.startRate === 10 && e.stages[1].target === 2000 && throws(() => loadConfig({ profile: 'paper', arrivals: 'bursty' }, profiles));
    },
  });

  // The options file (k6/lib/options.js): its path the only variable, a former variable without it refused.
  const optionsFile = { '/o.json': JSON.stringify({ schema: OPTIONS_SCHEMA, script: 'sps', profile: 'smoke', peak: 3 }) };
  const readFake = (f) => {
    if (optionsFile[f] === undefined) throw new Error(`no file ${f}`);
    return optionsFile[f];
  };
  check(null, {
    'options: read from the file SG_K6_OPTIONS names; none = every default': () =>
      readOptions({ SG_K6_OPTIONS: '/o.json' }, readFake, 'sps').peak === 3 && Object.keys(readOptions({}, readFake, 'sps')).length === 0,
    'options: a former variable without the file, a file of another script, a missing or non-JSON file are refused': () =>
      throws(() => readOptions({ PROFILE: 'paper' }, readFake, 'sps')) && throws(() => readOptions({ SG_K6_OPTIONS: '/o.json' }, readFake, 'mix')) &&
      throws(() => readOptions({ SG_K6_OPTIONS: '/none.json' }, readFake, 'sps')) && throws(() => readOptions({ SG_K6_OPTIONS: '/o.json' }, () => '{', 'sps')),
  });

  // Students who honour Retry-After (profile students): only a 503 with delay-seconds is a refusal to wait out.
  check(loadConfig({ profile: 'students' }, profiles), {
    'students profile: honours Retry-After up to 3 times, Poisson arrivals; the paper profile does not': (c) =>
      c.honourRetryAfter === true && c.maxRetries === 3 && c.arrivals === 'exponential' && cfg.honourRetryAfter === false,
    'honourRetryAfter and maxRetries override the profile': () =>
      loadConfig({ profile: 'paper', honourRetryAfter: true, maxRetries: 1 }, profiles).honourRetryAfter === true &&
      loadConfig({ profile: 'paper', honourRetryAfter: true, maxRetries: 1 }, profiles).maxRetries === 1 &&
      loadConfig({ profile: 'students', honourRetryAfter: false }, profiles).honourRetryAfter === false,
    'Retry-After: delay-seconds of a 503 only (either header case); anything else is no refusal': () =>
      retryAfterS(503, { 'Retry-After': '7' }) === 7 && retryAfterS(503, { 'retry-after': ' 2 ' }) === 2 &&
      retryAfterS(503, {}) === null && retryAfterS(429, { 'Retry-After': '7' }) === null &&
      retryAfterS(503, { 'Retry-After': 'Wed, 21 Oct 2026 07:28:00 GMT' }) === null && retryAfterS(503, { 'Retry-After': '-1' }) === null,
  });

  // Suites (load, soak, stress, spike): steps -> schedule -> ramping-arrival-rate stages.
  const steps = [{ rate: 2, holdS: 60 }, { rate: 10, holdS: 30 }, { rate: 2, holdS: 120 }];
  const sched = stepSchedule(steps, 5);
  check(sched, {
    'schedule: the first step holds from 0, later ones ramp for transitionS then hold': (x) =>
      JSON.stringify(x) === JSON.stringify([
        { index: 0, rate: 2, fromS: 0, holdFromS: 0, toS: 60 },
        { index: 1, rate: 10, fromS: 60, holdFromS: 65, toS: 95 },
        { index: 2, rate: 2, fromS: 95, holdFromS: 100, toS: 220 },
      ]) && scheduleS(x) === 220,
    'stages: hold, then ramp + hold per later step; exponential arrivals multiply the rates': () =>
      JSON.stringify(stepStages(steps, 5, 1)) === JSON.stringify([
        { target: 2, duration: '60s' }, { target: 10, duration: '5s' }, { target: 10, duration: '30s' }, { target: 2, duration: '5s' }, { target: 2, duration: '120s' },
      ]) && stepStages(steps, 5, 10)[2].target === 100,
    'step of an instant: a step owns its transition; after the end, the last step': (x) =>
      stepIndexAt(0, x) === 0 && stepIndexAt(59.9, x) === 0 && stepIndexAt(60, x) === 1 && stepIndexAt(94.9, x) === 1 && stepIndexAt(95, x) === 2 && stepIndexAt(500, x) === 2,
    'steps: integer rates >= 1 and positive holds only': () =>
      throws(() => checkSteps([])) && throws(() => checkSteps([{ rate: 1.5, holdS: 5 }])) && throws(() => checkSteps([{ rate: 1, holdS: 0 }])) && checkSteps(steps) === steps,
  });

  const stress = loadConfig({ profile: 'stress' }, profiles);
  const stressSc = scenarioOptions(stress);
  check(stress, {
    'suite profile: steps from the profile, peak = highest rate, the whole schedule is the hold stage': (c) =>
      c.suite === 'stress' && c.peak === 128 && c.rampS === 0 && c.holdS === 11 * 40 + 10 * 5 && c.steps.length === 11,
    'stress bounds the client timeout and budgets its VUs for slowed iterations (VUs = peak x (pauses + 2 s + 2 timeouts), at most 4)': (c) => c.timeoutS === 10 && stressSc.preAllocatedVUs === 128 * (5 + 2 + 2 * 10) && stressSc.maxVUs === 128 * (5 + 2 + 4 * 10),
    'suite scenario: starts at the first rate, stages from the steps': () =>
      stressSc.startRate === 2 && stressSc.stages.length === 21 && stressSc.stages[1].target === 4 && stressSc.stages[1].duration === '5s',
    'steps and transitionS from the runner override the profile; a soak holds peak for soakS': () => {
      const o = loadConfig({ profile: 'spike', steps: [{ rate: 3, holdS: 10 }, { rate: 15, holdS: 4 }], transitionS: 2 }, profiles);
      const soak = loadConfig({ profile: 'soak-scaled', peak: 6 }, profiles);
      return o.peak === 15 && o.holdS === 16 && o.schedule[1].fromS === 10 && soak.steps.length === 1 && soak.steps[0].rate === 6 && soak.holdS === 300;
    },
    'a plain profile has no steps and no step schedule': () => cfg.steps === undefined && cfg.schedule === undefined,
    'logRequests turns the per-request lines on': () => loadConfig({ profile: 'load-smoke', logRequests: true }, profiles).logRequests === true && !stress.logRequests,
  });

  // Paper 001's closed-model sweep (k6/lib/sweep.js, benchmarks/sweep.js).
  const paperSweep = profiles.sweep.sweep;
  const sweepPlan = sweepSchedule(paperSweep, paperSweep.gapS);
  const sweepSc = sweepScenarios(sweepPlan, paperSweep, paperSweep.gapS);
  check(null, {
    'sweep profile: the paper\'s 1, 10, 20 .. 120 threads, 20 s ramp, 120 s hold': () =>
      paperSweep.vus.join(',') === '1,10,20,30,40,50,60,70,80,90,100,110,120' && paperSweep.rampS === 20 && paperSweep.holdS === 120,
    'sweep schedule: steps one after the other, each after the previous one\'s gap': () =>
      sweepPlan[1].fromS === 20 + 120 + paperSweep.gapS && sweepPlan[1].holdFromS === sweepPlan[1].fromS + 20 && sweepPlan[12].vus === 120,
    'sweep scenarios: constant threads after a ramp from 0, started at their step, tagged with it': () =>
      sweepSc.step_3.executor === 'ramping-vus' && sweepSc.step_3.startVUs === 0 && sweepSc.step_3.stages[1].target === 30 &&
      sweepSc.step_3.stages[1].duration === '120s' && sweepSc.step_3.startTime === `${sweepPlan[3].fromS}s` && sweepSc.step_3.tags.step === '3',
    'sweep phases: ramp, hold (measured), drain': () => phaseAt(19.9, paperSweep) === 'ramp' && phaseAt(20, paperSweep) === 'hold' && phaseAt(140, paperSweep) === 'drain',
    'sweep thresholds name the hold-window submetrics of every step': () =>
      Object.keys(sweepThresholds(sweepPlan)).length === 3 * 13 && sweepThresholds(sweepPlan)['http_req_duration{step:12,phase:hold}'] !== undefined,
    'a sweep needs integer thread counts >= 1': () => throws(() => checkSweep({ vus: [0], rampS: 1, holdS: 1 })) && throws(() => checkSweep({ vus: [], rampS: 1, holdS: 1 })),
  });
}
