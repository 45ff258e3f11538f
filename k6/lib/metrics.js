// Custom k6 metrics of the paper's protocol. Counters are per request type and per KO cause (no
// high-cardinality tags) so that handleSummary sees each one directly and the time series stay
// few (bounded k6 memory). Tags: `stage` (ramp|hold, set per iteration by scenario-r.js;
// submetric thresholds (stageThresholds) make the summary carry both stages) and, on the KO
// totals only, `cause` (one of the few KO_CAUSES): raw outputs and dashboards break KOs down by it.
import { Counter, Trend } from 'k6/metrics';
import { ITERATION_KO_CAUSES, KO_CAUSES, apdexZone, bucketOf, classify, responseTimeMs } from './outcome.js';

export const STEPS = ['login', 'verify', 'sps', 'logout', 'verify_out'];
export const REQUEST_TYPES = STEPS.reduce((all, s) => all.concat(['opt_' + s, s]), []);
export const OUTCOMES = ['ok', 'ko'];
export const STAGES = ['ramp', 'hold'];

const counters = {};
const trends = {};
function counter(name) {
  counters[name] = new Counter(name);
  return counters[name];
}
function trend(name) {
  trends[name] = new Trend(name, true);
  return trends[name];
}

export const iterationsStarted = counter('sg_iterations_started');
export const requestsPlanned = counter('sg_requests_planned'); // N = 10 × VUs started
const totals = { ok: counter('sg_ok'), ko: counter('sg_ko') };
const koCauses = {};
for (const c of KO_CAUSES) koCauses[c] = counter(`sg_ko_cause_${c}`);
const iterations = { ok: counter('sg_iter_ok'), ko: {} };
for (const c of ITERATION_KO_CAUSES) iterations.ko[c] = counter(`sg_iter_ko_${c}`);
// Counted by scenario-r.js only when the iteration reached its end: started − ended = cut.
const iterationsEnded = counter('sg_iterations_ended');
const clientErrors = counter('sg_client_errors');
const buckets = {
  lt800: counter('sg_ok_lt800'),
  b800_1200: counter('sg_ok_800_1200'),
  ge1200: counter('sg_ok_ge1200'),
};
const apdex = {
  satisfied: counter('sg_apdex_satisfied'),
  tolerating: counter('sg_apdex_tolerating'),
  frustrated: counter('sg_apdex_frustrated'),
};
const rtOk = trend('sg_rt_ok');
const rtOkSps = trend('sg_rt_ok_sps');
const spsAccepted = counter('sg_sps_accepted');
// Time to feedback (SPS sent -> grade known, by the reply or by polling) and the polls it took.
const feedbackMs = trend('sg_feedback_ms');
const feedback = { reply: counter('sg_feedback_reply'), polled: counter('sg_feedback_polled'), missing: counter('sg_feedback_missing') };
const polls = { ok: counter('sg_poll_ok'), failed: counter('sg_poll_failed') };
// Submissions refused with 503 + Retry-After that the student waited out and sent again
// (profiles with honourRetryAfter): outside N, and the wait the refusals asked for.
const spsRefused = counter('sg_sps_refused');
const spsRetryWaitS = trend('sg_sps_retry_wait_s');
// The same for logins refused by a bounded password check (admission.maxLogins*).
const loginRefused = counter('sg_login_refused');
const loginRetryWaitS = trend('sg_login_retry_wait_s');
const perType = {};
for (const type of REQUEST_TYPES) {
  perType[type] = {};
  for (const o of OUTCOMES) perType[type][o] = counter(`sg_${o}_${type}`);
  // Which request type carries a latency tail (a slow login is not a slow grading).
  perType[type].rt = trend(`sg_rt_ok_${type}`);
}

/**
 * Always-true thresholds on the `stage` submetrics of every custom metric: k6 puts a submetric
 * in handleSummary's data only when a threshold names it.
 */
export function stageThresholds() {
  const out = {};
  for (const stage of STAGES) {
    for (const name of Object.keys(counters)) out[`${name}{stage:${stage}}`] = ['count>=0'];
    for (const name of Object.keys(trends)) out[`${name}{stage:${stage}}`] = ['max>=0'];
    out[`http_reqs{stage:${stage}}`] = ['count>=0'];
  }
  return out;
}

/**
 * Counts one response. `cfg` carries the Apdex thresholds and the client timeout. Returns the
 * outcome, its KO cause (null when OK) and the response time.
 */
export function recordResponse(type, res, expected, cfg) {
  const ms = responseTimeMs(res.timings);
  const r = classify(res.status, expected, res.error_code, ms, cfg.timeoutS * 1000);
  totals[r.outcome].add(1, r.outcome === 'ko' ? { cause: r.cause } : undefined);
  perType[type][r.outcome].add(1);
  apdex[apdexZone(r.outcome, ms, cfg.apdexTMs, cfg.apdexFMs)].add(1);
  if (r.outcome === 'ko') {
    koCauses[r.cause].add(1);
  } else {
    buckets[bucketOf(ms)].add(1);
    rtOk.add(ms);
    perType[type].rt.add(ms);
    if (type === 'sps') rtOkSps.add(ms);
  }
  // What the platform told the client it accepted (the zero-loss audit compares it with the database).
  if (type === 'sps' && (res.status === 201 || res.status === 202)) spsAccepted.add(1);
  return { outcome: r.outcome, cause: r.cause, ms };
}

/** The end of one iteration: OK, or KO with the cause of its first failure. */
export function recordIteration(koCause) {
  iterationsEnded.add(1);
  if (koCause === null) iterations.ok.add(1);
  else iterations.ko[koCause].add(1, { cause: koCause });
}

/** A script exception: the client, not the system under test, failed (the run is INVALID). */
export function recordClientError() {
  clientErrors.add(1);
}

/**
 * Plays one user's iteration (`user(it)` sets `it.cause` at its first KO) and records how it ended;
 * a script exception is the client's failure, recorded as such and logged, never the system's.
 */
export function playIteration(it, user) {
  try {
    user(it);
    recordIteration(it.cause);
  } catch (e) {
    recordClientError();
    recordIteration(it.cause === null ? 'client_error' : it.cause);
    console.error(JSON.stringify({ sg: 'client_error', error: String(e) }));
  }
}

/** One SPS's feedback: `found` false when no final status came within the request timeout. */
export function recordFeedback(spsStatus, ms, found) {
  if (!found) {
    feedback.missing.add(1);
    return;
  }
  feedbackMs.add(ms);
  (spsStatus === 201 ? feedback.reply : feedback.polled).add(1);
}

/** An SPS refused with 503 + Retry-After that the student will send again after `retryAfterS`. */
/** A 503 + Retry-After the student waits out (`type` sps or login), outside N. */
export function recordRefused(type, retryAfterS) {
  (type === 'login' ? loginRefused : spsRefused).add(1);
  (type === 'login' ? loginRetryWaitS : spsRetryWaitS).add(retryAfterS);
}

export function recordPoll(status) {
  (status === 200 ? polls.ok : polls.failed).add(1);
}
