// Custom k6 metrics of the paper's protocol. Counters are per request type (no tags) so that
// handleSummary sees each one directly and the time series stay few (bounded k6 memory).
import { Counter, Trend } from 'k6/metrics';
import { apdexZone, bucketOf, classify, responseTimeMs } from './outcome.js';

export const STEPS = ['login', 'verify', 'sps', 'logout', 'verify_out'];
export const REQUEST_TYPES = STEPS.reduce((all, s) => all.concat(['opt_' + s, s]), []);
export const OUTCOMES = ['ok', 'ko', 'unexpected'];

export const iterationsStarted = new Counter('sg_iterations_started');
export const requestsPlanned = new Counter('sg_requests_planned'); // N = 10 × VUs started
const totals = {
  ok: new Counter('sg_ok'),
  ko: new Counter('sg_ko'),
  unexpected: new Counter('sg_unexpected'),
};
const buckets = {
  lt800: new Counter('sg_ok_lt800'),
  b800_1200: new Counter('sg_ok_800_1200'),
  ge1200: new Counter('sg_ok_ge1200'),
};
const apdex = {
  satisfied: new Counter('sg_apdex_satisfied'),
  tolerating: new Counter('sg_apdex_tolerating'),
  frustrated: new Counter('sg_apdex_frustrated'),
};
const rtOk = new Trend('sg_rt_ok', true);
const rtOkSps = new Trend('sg_rt_ok_sps', true);
const spsOkInHold = new Counter('sg_ok_sps_hold');
// Time to feedback (SPS sent -> grade known, by the reply or by polling) and the polls it took.
const feedbackMs = new Trend('sg_feedback_ms', true);
const feedback = { reply: new Counter('sg_feedback_reply'), polled: new Counter('sg_feedback_polled'), missing: new Counter('sg_feedback_missing') };
const polls = { ok: new Counter('sg_poll_ok'), failed: new Counter('sg_poll_failed') };
const perType = {};
for (const type of REQUEST_TYPES) {
  perType[type] = {};
  for (const o of OUTCOMES) perType[type][o] = new Counter(`sg_${o}_${type}`);
  // Which request type carries a latency tail (a slow login is not a slow grading).
  perType[type].rt = new Trend(`sg_rt_ok_${type}`, true);
}

/**
 * Counts one response. `cfg` carries the Apdex thresholds; `inHold` says whether an SPS ended
 * inside the sustained stage (for the SPS throughput at peak). Returns the outcome and the
 * response time.
 */
export function recordResponse(type, res, expected, cfg, inHold) {
  const outcome = classify(res.status, expected);
  const ms = responseTimeMs(res.timings);
  totals[outcome].add(1);
  perType[type][outcome].add(1);
  if (outcome === 'ok') {
    buckets[bucketOf(ms)].add(1);
    apdex[apdexZone(ms, cfg.apdexTMs, cfg.apdexFMs)].add(1);
    rtOk.add(ms);
    perType[type].rt.add(ms);
    if (type === 'sps') {
      rtOkSps.add(ms);
      if (inHold) spsOkInHold.add(1);
    }
  }
  return { outcome, ms };
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

export function recordPoll(status) {
  (status === 200 ? polls.ok : polls.failed).add(1);
}
