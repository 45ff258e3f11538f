// The paper's per-test metrics (§IV-C; docs/design.md, Metrics) computed from a k6 summary (`data.metrics`
// of handleSummary). Pure: no k6 imports, so the runner and tests can reason about it.
// Definitions (benchmarks/METRICS.md): N = 10 × users started; every request sent is OK or KO;
// requests never sent (after a failed login, or cut by the end of the test) are N − OK − KO.
//   efr_paper = (N − OK) / N = 1 − RAC·(1 − FR)   — what paper 000 publishes as EFR (Table I)
//   ko_rate   = KO / N                              — what §IV-C's text calls EFR

import { ITERATION_KO_CAUSES, KO_CAUSES } from './outcome.js';

function ratio(a, b) {
  return b > 0 ? a / b : null;
}

/** Paper 000's published EFR from its RAC and FR columns (both fractions). */
export function efrFromRacFr(rac, fr) {
  return 1 - rac * (1 - fr);
}

/** Reader of counters/trends, of the whole run or of one stage's submetric (`name{stage:hold}`). */
function reader(metrics, stage) {
  const key = (name) => (stage ? `${name}{stage:${stage}}` : name);
  const count = (name) => {
    const m = metrics[key(name)];
    return m && m.values && typeof m.values.count === 'number' ? m.values.count : 0;
  };
  const stat = (name, k) => {
    const m = metrics[key(name)];
    return m && m.values && typeof m.values[k] === 'number' ? m.values[k] : null;
  };
  return { count, stat };
}

function causes(count, prefix, names) {
  const out = {};
  for (const c of names) out[c] = count(prefix + c);
  return out;
}

/**
 * @param metrics  handleSummary's data.metrics
 * @param durationS seconds the throughputs are over (the test, or the stage)
 * @param holdS    length of the sustained stage (SPS throughput at peak)
 * @param requestTypes list of request type names (opt_login, login, ...)
 * @param stage    null for the whole test, 'ramp' or 'hold' for one stage's iterations
 */
export function paperMetrics(metrics, durationS, holdS, requestTypes, stage) {
  const { count, stat } = reader(metrics, stage || null);
  const iterations = count('sg_iterations_started');
  const N = count('sg_requests_planned');
  const OK = count('sg_ok');
  const KO = count('sg_ko');
  const spsOK = count('sg_ok_sps');
  const spsKO = count('sg_ko_sps');
  const lt800 = count('sg_ok_lt800');
  const b800 = count('sg_ok_800_1200');
  const ge1200 = count('sg_ok_ge1200');
  const sat = count('sg_apdex_satisfied');
  const tol = count('sg_apdex_tolerating');
  const frus = count('sg_apdex_frustrated');
  const iterKo = causes(count, 'sg_iter_ko_', ITERATION_KO_CAUSES);
  // An iteration still running when gracefulStop ended the test never reached its end.
  iterKo.cut_by_graceful_stop = Math.max(0, iterations - count('sg_iterations_ended'));
  const perType = {};
  for (const t of requestTypes) {
    perType[t] = {
      ok: count(`sg_ok_${t}`),
      ko: count(`sg_ko_${t}`),
      p50: stat(`sg_rt_ok_${t}`, 'p(50)'),
      p95: stat(`sg_rt_ok_${t}`, 'p(95)'),
      p99: stat(`sg_rt_ok_${t}`, 'p(99)'),
      max: stat(`sg_rt_ok_${t}`, 'max'),
    };
  }
  const holdSpsOk = stage === 'ramp' ? null : reader(metrics, 'hold').count('sg_ok_sps');
  return {
    vus: iterations,
    N,
    OK,
    KO,
    notSent: Math.max(0, N - OK - KO),
    RAC: ratio(OK + KO, N),
    FR: ratio(KO, OK + KO),
    efr_paper: ratio(N - OK, N),
    ko_rate: ratio(KO, N),
    koCauses: causes(count, 'sg_ko_cause_', KO_CAUSES),
    iterations: {
      started: iterations,
      ok: count('sg_iter_ok'),
      ko: Object.keys(iterKo).reduce((s, c) => s + iterKo[c], 0),
      koCauses: iterKo,
    },
    sps: {
      N: iterations,
      OK: spsOK,
      KO: spsKO,
      accepted: count('sg_sps_accepted'),
      FR: ratio(spsKO, spsOK + spsKO),
      efr_paper: ratio(iterations - spsOK, iterations),
      ko_rate: ratio(spsKO, iterations),
      throughput: ratio(spsOK, durationS),
      throughputHold: holdSpsOk === null ? null : ratio(holdSpsOk, holdS),
      p50: stat('sg_rt_ok_sps', 'p(50)'),
      p95: stat('sg_rt_ok_sps', 'p(95)'),
      p99: stat('sg_rt_ok_sps', 'p(99)'),
    },
    buckets: { lt800: ratio(lt800, OK), b800_1200: ratio(b800, OK), ge1200: ratio(ge1200, OK) },
    // gatling-report: over every request sent, KO counted frustrated.
    apdex: ratio(sat + tol / 2, sat + tol + frus),
    throughput: ratio(OK, durationS),
    // Mean response time of OK requests: paper 002 reports averages beside percentiles.
    avg: stat('sg_rt_ok', 'avg'),
    p50: stat('sg_rt_ok', 'p(50)'),
    p95: stat('sg_rt_ok', 'p(95)'),
    p99: stat('sg_rt_ok', 'p(99)'),
    durationS,
    droppedIterations: stage ? 0 : count('dropped_iterations'),
    clientErrors: count('sg_client_errors'),
    vusMax: stage ? null : stat('vus_max', 'max') ?? stat('vus_max', 'value'),
    checksRate: stat('checks', 'rate'),
    feedback: {
      reply: count('sg_feedback_reply'),
      polled: count('sg_feedback_polled'),
      missing: count('sg_feedback_missing'),
      p50: stat('sg_feedback_ms', 'p(50)'),
      p95: stat('sg_feedback_ms', 'p(95)'),
      max: stat('sg_feedback_ms', 'max'),
      polls: count('sg_poll_ok'),
      pollsFailed: count('sg_poll_failed'),
      // Refusals with 503 + Retry-After the student waited out and resubmitted (outside N).
      refused: count('sg_sps_refused'),
      retryWaitP95S: stat('sg_sps_retry_wait_s', 'p(95)'),
    },
    // Logins refused with 503 + Retry-After (a bounded password check) the student waited out.
    logins: {
      refused: count('sg_login_refused'),
      retryWaitP95S: stat('sg_login_retry_wait_s', 'p(95)'),
    },
    perType,
  };
}

/** The whole test plus each stage (ramp over rampS, hold over holdS): tables use `stages.hold`. */
export function paperMetricsByStage(metrics, durationS, cfg, requestTypes) {
  const all = paperMetrics(metrics, durationS, cfg.holdS, requestTypes, null);
  all.stages = {
    ramp: paperMetrics(metrics, cfg.rampS, cfg.holdS, requestTypes, 'ramp'),
    hold: paperMetrics(metrics, cfg.holdS, cfg.holdS, requestTypes, 'hold'),
  };
  return all;
}
