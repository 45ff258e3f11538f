// Scenario R of the paper (§IV-A): five request pairs (CORS preflight OPTIONS, then the call),
// each followed by a pause. A fresh cookie jar per iteration is one browser session; the
// remaining requests are skipped when login fails; the last verify must answer 401.
import http from 'k6/http';
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { iterationsStarted, recordResponse, requestsPlanned } from './metrics.js';
import { spsOkStatuses } from './outcome.js';
import { newTraceparent } from './traceparent.js';
import { spsBody } from './sps-body.js';
import { userFor } from './users.js';

const OK_STATUSES = [200, 201, 304];
// Preflights: a CORS middleware answers 204 No Content by default.
const PREFLIGHT_OK_STATUSES = [200, 204, 304];
const LOGGED_OUT_STATUSES = [401];
const REQUESTS_PER_ITERATION = 10;

// Preflights never carry credentials, so they use a jar that stays empty.
const noCookies = new http.CookieJar();

function send(cfg, type, method, path, body, headers, jar, expected, inHoldFn) {
  const tp = newTraceparent();
  const params = {
    headers: Object.assign({ Origin: cfg.origin, traceparent: tp.header }, headers),
    jar,
    timeout: `${cfg.timeoutS}s`,
    redirects: 0,
    tags: { name: type },
    responseCallback: http.expectedStatuses.apply(null, expected),
  };
  // The SPS sample carries its trace id as non-indexed metadata (raw `--out json` output)
  // without creating one time series per trace (k6 memory stays bounded).
  if (type === 'sps') exec.vu.metrics.metadata.trace_id = tp.traceId;
  const startedMs = Date.now();
  const res = http.request(method, cfg.baseUrl + path, body, params);
  if (type === 'sps') delete exec.vu.metrics.metadata.trace_id;
  const r = recordResponse(type, res, expected, cfg, inHoldFn ? inHoldFn(Date.now()) : false);
  check(res, { [`${type} answered ${expected.join('/')}`]: () => r.outcome === 'ok' });
  return { res, outcome: r.outcome, ms: r.ms, startedMs, traceId: tp.traceId, spanId: tp.spanId };
}

function pair(cfg, step, method, path, body, jar, expected, inHoldFn) {
  send(cfg, 'opt_' + step, 'OPTIONS', path, null, {
    'Access-Control-Request-Method': method,
    'Access-Control-Request-Headers': body === null ? 'traceparent' : 'content-type,traceparent',
  }, noCookies, PREFLIGHT_OK_STATUSES);
  const headers = body === null ? {} : { 'Content-Type': 'application/json' };
  return send(cfg, step, method, path, body, headers, jar, expected, inHoldFn);
}

/**
 * One iteration of R. `ctx` = { cfg, users (SharedArray), productionData (JSON text),
 * holdWindow: { startMs, endMs } | null }.
 */
export function scenarioR(ctx) {
  const cfg = ctx.cfg;
  iterationsStarted.add(1);
  requestsPlanned.add(REQUESTS_PER_ITERATION);
  const user = userFor(ctx.users, exec.scenario.iterationInTest);
  const jar = new http.CookieJar();

  const login = pair(cfg, 'login', 'POST', '/api/user/login',
    JSON.stringify({ email: user.email, password: user.password }), jar, OK_STATUSES);
  if (login.outcome !== 'ok') return;
  const session = jar.cookiesForURL(cfg.baseUrl + '/api/auth/verify');
  if (!check(session, { 'login set an access_token cookie': (c) => Boolean(c.access_token) })) return;
  sleep(cfg.pauseS);

  pair(cfg, 'verify', 'GET', '/api/auth/verify', null, jar, OK_STATUSES);
  sleep(cfg.pauseS);

  const w = ctx.holdWindow;
  const sps = pair(cfg, 'sps', 'POST', '/api/exercise-production', spsBody(user, ctx.productionData),
    jar, spsOkStatuses(cfg.reply), w ? (endMs) => endMs >= w.startMs && endMs < w.endMs : null);
  if (cfg.logSps) {
    // One line per SPS so traces/ can match the client duration to its Jaeger trace.
    console.log(JSON.stringify({
      sg: 'sps', trace_id: sps.traceId, span_id: sps.spanId, start_ms: sps.startedMs,
      duration_ms: sps.ms, status: sps.res.status, outcome: sps.outcome, error_code: sps.res.error_code,
      vu: exec.vu.idInTest, iteration: exec.scenario.iterationInTest,
    }));
  }
  sleep(cfg.pauseS);

  pair(cfg, 'logout', 'DELETE', '/api/user/logout', null, jar, OK_STATUSES);
  sleep(cfg.pauseS);

  pair(cfg, 'verify_out', 'GET', '/api/auth/verify', null, jar, LOGGED_OUT_STATUSES);
  sleep(cfg.pauseS);
}
