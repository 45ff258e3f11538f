// Request outcome as the paper counts it (§IV-C): OK when the status is the expected one,
// KO for 502/503/504 and transport errors/timeouts (status 0 in k6), anything else is an
// unexpected (functional) answer, which the paper's scenario rules out and we report apart.

export const KO_STATUSES = [502, 503, 504];

/** @returns {'ok'|'ko'|'unexpected'} */
export function classify(status, expected) {
  if (expected.indexOf(status) >= 0) return 'ok';
  if (status === 0 || KO_STATUSES.indexOf(status) >= 0) return 'ko';
  return 'unexpected';
}

// The SPS answer the student expects: the feedback (201) from a sync variant; 202 + poll from an
// async one. A sync variant's 202 (its reply timed out; graded later) counts as unexpected.
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

/** Apdex zone: satisfied <= T, tolerating <= F (F = 4T by the Apdex standard). */
export function apdexZone(ms, tMs, fMs) {
  if (ms <= tMs) return 'satisfied';
  if (ms <= fMs) return 'tolerating';
  return 'frustrated';
}
