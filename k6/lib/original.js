// The original ShellOnYou load test as its client saw it (SOY_loadTests, LoadTestMonolith.java, a
// Gatling 3 simulation), as data: what it sends, what it counts OK, how it injects. Pure — no k6
// imports — so Jest (benchmarks/test/original-client.spec.ts) and k6 (k6/test/modules.test.js)
// check the same definitions the scenario (scenario-original.js) and the runner use.
//
// What differs from scenario R, and why it matters: the original never retries (a 503 is a KO, as
// Gatling counts any status outside its default check), has no warm-up, and injects each step
// after a quiet spell (`nothingFor`) with Poisson arrivals (`randomized`) — a system whose
// capacity estimate decays while idle is seen cold at every step.

/** Gatling's default status check (HttpProtocol's default success statuses): 200 to 210 and 304. */
export const GATLING_OK_STATUSES = [200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 304];

/** The last request (verify after logout) checks `status.is(401)` instead. */
export const GATLING_LOGGED_OUT_STATUSES = [401];

/**
 * The protocol of one step, as the issue that made it first-class measured it: a quiet spell,
 * a ramp 1 -> rate, a constant rate; constant 5 s pauses; Gatling's 60 s request timeout.
 * Sustainable = the highest step with 0 KO and SPS p95 <= 2 s.
 */
export const ORIGINAL_STEP = { quietS: 10, rampS: 10, holdS: 60, pauseS: 5, timeoutS: 60, spsP95Ms: 2000 };

// The SPA's headers as the recorder saved them (headers_16 / headers_34 / headers_7), and the
// preflights' Access-Control-Request-Headers (headers_15, headers_6, headers_55). `traceparent`
// is this harness's own addition (each SPS maps to its trace); a browser lists it in the preflight.
const SPA_HEADERS = { Accept: 'application/json, text/plain, */*', 'Cache-Control': 'no-cache', 'Content-Language': 'en' };

/**
 * The five request pairs of the original scenario in order: type (the metric names scenario R
 * uses), method, path, whether it has a JSON body, the statuses Gatling counts OK.
 */
export const ORIGINAL_REQUESTS = [
  { type: 'login', method: 'POST', path: '/api/user/login', json: true, expected: GATLING_OK_STATUSES },
  { type: 'verify', method: 'GET', path: '/api/auth/verify', json: false, expected: GATLING_OK_STATUSES },
  { type: 'sps', method: 'POST', path: '/api/exercise-production', json: true, expected: GATLING_OK_STATUSES },
  { type: 'logout', method: 'DELETE', path: '/api/user/logout', json: false, expected: GATLING_OK_STATUSES },
  { type: 'verify_out', method: 'GET', path: '/api/auth/verify', json: false, expected: GATLING_LOGGED_OUT_STATUSES },
];

/** The call's headers: the SPA's, Content-Type for a JSON body, the origin and the trace header. */
export function callHeaders(req, origin, traceparent) {
  const h = Object.assign({}, SPA_HEADERS, { Origin: origin, traceparent });
  if (req.json) h['Content-Type'] = 'application/json';
  return h;
}

/** Its CORS preflight's headers: the method, and the non-simple headers the call will carry. */
export function preflightHeaders(req, origin) {
  const asked = req.json ? ['cache-control', 'content-type', 'traceparent'] : ['cache-control', 'traceparent'];
  return { Origin: origin, 'Access-Control-Request-Method': req.method, 'Access-Control-Request-Headers': asked.join(',') };
}

/**
 * The login as the original checks it: its status (Gatling's default check) and `jsonPath("$.email")`
 * on the body — a 200 without an email is a KO too. Returns the statuses to classify against:
 * the default ones, or none when the body check failed (then any status reads as unplanned).
 */
export function loginExpected(status, body) {
  if (GATLING_OK_STATUSES.indexOf(status) < 0) return GATLING_OK_STATUSES;
  try {
    const email = JSON.parse(body).email;
    return email !== undefined && email !== null ? GATLING_OK_STATUSES : [];
  } catch (e) {
    return [];
  }
}
