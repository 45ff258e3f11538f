// The paper's per-test metrics (§IV-C, DESIGN §6) computed from a k6 summary (`data.metrics`
// of handleSummary). Pure: no k6 imports, so the runner and tests can reason about it.

function count(metrics, name) {
  const m = metrics[name];
  return m && m.values && typeof m.values.count === 'number' ? m.values.count : 0;
}

function stat(metrics, name, key) {
  const m = metrics[name];
  return m && m.values && typeof m.values[key] === 'number' ? m.values[key] : null;
}

function ratio(a, b) {
  return b > 0 ? a / b : null;
}

/**
 * @param metrics  handleSummary's data.metrics
 * @param durationS test run duration in seconds (data.state.testRunDurationMs / 1000)
 * @param holdS    length of the sustained stage (SPS throughput at peak)
 * @param requestTypes list of request type names (opt_login, login, ...)
 */
export function paperMetrics(metrics, durationS, holdS, requestTypes) {
  const iterations = count(metrics, 'sg_iterations_started');
  const N = count(metrics, 'sg_requests_planned');
  const OK = count(metrics, 'sg_ok');
  const KO = count(metrics, 'sg_ko');
  const unexpected = count(metrics, 'sg_unexpected');
  const spsOK = count(metrics, 'sg_ok_sps');
  const spsKO = count(metrics, 'sg_ko_sps');
  const spsUnexpected = count(metrics, 'sg_unexpected_sps');
  const lt800 = count(metrics, 'sg_ok_lt800');
  const b800 = count(metrics, 'sg_ok_800_1200');
  const ge1200 = count(metrics, 'sg_ok_ge1200');
  const sat = count(metrics, 'sg_apdex_satisfied');
  const tol = count(metrics, 'sg_apdex_tolerating');
  const perType = {};
  for (const t of requestTypes) {
    perType[t] = {
      ok: count(metrics, `sg_ok_${t}`),
      ko: count(metrics, `sg_ko_${t}`),
      unexpected: count(metrics, `sg_unexpected_${t}`),
      p50: stat(metrics, `sg_rt_ok_${t}`, 'p(50)'),
      p95: stat(metrics, `sg_rt_ok_${t}`, 'p(95)'),
      p99: stat(metrics, `sg_rt_ok_${t}`, 'p(99)'),
      max: stat(metrics, `sg_rt_ok_${t}`, 'max'),
    };
  }
  return {
    vus: iterations,
    N,
    OK,
    KO,
    unexpected,
    RAC: ratio(OK + KO, N),
    FR: ratio(KO, OK + KO),
    EFR: ratio(KO, N),
    sps: {
      N: iterations,
      OK: spsOK,
      KO: spsKO,
      unexpected: spsUnexpected,
      FR: ratio(spsKO, spsOK + spsKO),
      EFR: ratio(spsKO, iterations),
      throughput: ratio(spsOK, durationS),
      throughputHold: ratio(count(metrics, 'sg_ok_sps_hold'), holdS),
      p50: stat(metrics, 'sg_rt_ok_sps', 'p(50)'),
      p95: stat(metrics, 'sg_rt_ok_sps', 'p(95)'),
      p99: stat(metrics, 'sg_rt_ok_sps', 'p(99)'),
    },
    buckets: { lt800: ratio(lt800, OK), b800_1200: ratio(b800, OK), ge1200: ratio(ge1200, OK) },
    apdex: ratio(sat + tol / 2, OK),
    throughput: ratio(OK, durationS),
    p50: stat(metrics, 'sg_rt_ok', 'p(50)'),
    p95: stat(metrics, 'sg_rt_ok', 'p(95)'),
    p99: stat(metrics, 'sg_rt_ok', 'p(99)'),
    durationS,
    droppedIterations: count(metrics, 'dropped_iterations'),
    vusMax: stat(metrics, 'vus_max', 'max') ?? stat(metrics, 'vus_max', 'value'),
    checksRate: stat(metrics, 'checks', 'rate'),
    feedback: {
      reply: count(metrics, 'sg_feedback_reply'),
      polled: count(metrics, 'sg_feedback_polled'),
      missing: count(metrics, 'sg_feedback_missing'),
      p50: stat(metrics, 'sg_feedback_ms', 'p(50)'),
      p95: stat(metrics, 'sg_feedback_ms', 'p(95)'),
      max: stat(metrics, 'sg_feedback_ms', 'max'),
      polls: count(metrics, 'sg_poll_ok'),
      pollsFailed: count(metrics, 'sg_poll_failed'),
    },
    perType,
  };
}
