// Request outcome (§IV-C of paper 000, extended so nothing is left unclassified): OK when the
// status is the expected one within the client timeout, otherwise KO with a cause — the paper's
// 502/503/504 and transport errors, and everything the paper's scenario rules out (another 5xx,
// an unplanned 4xx or 2xx/3xx, a reply past the timeout). Gatling counts a failed check the same way.

export const KO_STATUSES = [502, 503, 504];

/** Why a request is KO. Each cause is its own counter (sg_ko_cause_<cause>) and a `cause` tag. */
export const KO_CAUSES = ['gateway_5xx', 'server_5xx', 'unplanned_4xx', 'unplanned_status', 'timeout', 'socket', 'late_reply'];

/** Why an iteration is KO besides its first KO request (see scenario-r.js). */
export const ITERATION_KO_CAUSES = KO_CAUSES.concat(['no_session_cookie', 'client_error']);

// k6 error code of a request that hit its timeout (k6 docs, "Error codes": 1050).
const K6_REQUEST_TIMEOUT = 1050;

/**
 * @param status    HTTP status (0 = no response)
 * @param expected  statuses that are OK for this request
 * @param errorCode k6's res.error_code (0 when none)
 * @param ms        client-observed response time
 * @param timeoutMs the client timeout: an answer after it is not one the user waited for
 * @returns {{outcome: 'ok'|'ko', cause: string|null}}
 */
export function classify(status, expected, errorCode, ms, timeoutMs) {
  if (status === 0) return ko(errorCode === K6_REQUEST_TIMEOUT ? 'timeout' : 'socket');
  if (timeoutMs !== undefined && ms > timeoutMs) return ko('late_reply');
  if (expected.indexOf(status) >= 0) return { outcome: 'ok', cause: null };
  if (KO_STATUSES.indexOf(status) >= 0) return ko('gateway_5xx');
  if (status >= 500) return ko('server_5xx');
  if (status >= 400) return ko('unplanned_4xx');
  return ko('unplanned_status');
}

function ko(cause) {
  return { outcome: 'ko', cause };
}

// The SPS answer the student expects: the feedback (201) from a sync variant; 202 + poll from an
// async one. A sync variant's 202 (its reply timed out; graded later) is KO (unplanned_status).
export function spsOkStatuses(reply) {
  return reply === 'async' ? [200, 201, 202, 304] : [200, 201, 304];
}

/**
 * Client-observed response time of one request in ms: connection set-up included (under
 * overload the accept backlog is where time goes), k6-internal blocking excluded.
 */
export function responseTimeMs(timings) {
  return timings.connecting + timings.tls_handshaking + timings.duration;
}

/** Paper buckets for successful requests: < 800 ms, 800–1200 ms, >= 1200 ms. */
export function bucketOf(ms) {
  if (ms < 800) return 'lt800';
  if (ms < 1200) return 'b800_1200';
  return 'ge1200';
}

/**
 * Apdex zone as gatling-report computes it: over every request, a KO is frustrated; an OK is
 * satisfied <= T, tolerating <= F (F = 4T by the Apdex standard), frustrated past F.
 */
export function apdexZone(outcome, ms, tMs, fMs) {
  if (outcome !== 'ok') return 'frustrated';
  if (ms <= tMs) return 'satisfied';
  if (ms <= fMs) return 'tolerating';
  return 'frustrated';
}

/** Stage of the injection an iteration started in: the paper's ramp, then the sustained hold. */
export function stageOf(nowMs, startMs, rampS) {
  return nowMs < startMs + rampS * 1000 ? 'ramp' : 'hold';
}

/**
 * Seconds a 503 asks the client to wait (Retry-After as delay-seconds), or null when the answer
 * is not such a refusal. An HTTP-date Retry-After is not used by shellgrade and reads as null.
 */
export function retryAfterS(status, headers) {
  if (status !== 503 || !headers) return null;
  const raw = headers['Retry-After'] !== undefined ? headers['Retry-After'] : headers['retry-after'];
  if (raw === undefined || !/^\d+$/.test(String(raw).trim())) return null;
  return Number(raw);
}
