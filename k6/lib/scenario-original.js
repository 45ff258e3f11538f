// The original ShellOnYou load test's scenario (k6/lib/original.js has its definitions), for
// benchmarks/sps.js with a profile whose `client` is "original". Per virtual user, exactly its
// sequence: OPTIONS + POST login (checked: status, and an email in the body); when the jar holds
// an access_token: pause, OPTIONS + GET verify, pause, OPTIONS + POST exercise-production,
// pause, OPTIONS + DELETE logout, cookies flushed, pause, OPTIONS + GET verify expecting 401,
// pause. Nothing is retried: a 503 is a KO like any other status outside Gatling's check, and the
// next request is sent all the same (Gatling does not stop a user at a KO). No polling: the
// original client takes the SPS answer as it comes. The metrics are scenario R's (metrics.js),
// so the paper's tables, the runner and the audit read this client's runs as they read R's.
import http from 'k6/http';
import { check, group, sleep } from 'k6';
import exec from 'k6/execution';
import { iterationsStarted, playIteration, recordResponse, requestsPlanned } from './metrics.js';
import { GATLING_OK_STATUSES, ORIGINAL_REQUESTS, callHeaders, loginExpected, preflightHeaders } from './original.js';
import { stageOf } from './outcome.js';
import { newTraceparent } from './traceparent.js';
import { spsBody } from './sps-body.js';
import { userFor } from './users.js';

const REQUESTS_PER_ITERATION = 10;
const byType = {};
for (const r of ORIGINAL_REQUESTS) byType[r.type] = r;
const spsBodies = {};

/** One request, classified as Gatling would and recorded; `expectedOf(res)` overrides the statuses (the login's body check). */
function send(cfg, it, type, req, body, jar, expectedOf) {
  const tp = newTraceparent();
  const preflight = type.indexOf('opt_') === 0;
  // A preflight is checked as any request (the last one's 401 check is on its call only).
  const statuses = preflight ? GATLING_OK_STATUSES : req.expected;
  const params = {
    headers: preflight ? preflightHeaders(req, cfg.origin) : callHeaders(req, cfg.origin, tp.header),
    jar,
    timeout: cfg.timeoutS + 's',
    tags: { name: type },
    responseCallback: http.expectedStatuses.apply(null, statuses),
  };
  if (type === 'login' || type === 'sps') params.responseType = 'text';
  if (type === 'sps') it.vuMetrics.metadata.trace_id = tp.traceId;
  const startedMs = Date.now();
  const res = http.request(preflight ? 'OPTIONS' : req.method, cfg.baseUrl + req.path, body, params);
  if (type === 'sps') delete it.vuMetrics.metadata.trace_id;
  const expected = expectedOf ? expectedOf(res) : statuses;
  const rec = recordResponse(type, res, expected, cfg);
  if (rec.cause !== null && it.cause === null) it.cause = rec.cause;
  if (cfg.logRequests) {
    console.log(JSON.stringify({ sg: 'req', t: startedMs, ms: Math.round(rec.ms), type, outcome: rec.outcome, cause: rec.cause, step: null }));
  }
  return { res, outcome: rec.outcome, ms: rec.ms, startedMs, traceId: tp.traceId, spanId: tp.spanId };
}

/** The preflight (no credentials, as a browser sends it), then the call with the user's jar. */
function pair(cfg, it, type, body, jar, expectedOf) {
  const req = byType[type];
  send(cfg, it, 'opt_' + type, req, null, new http.CookieJar(), null);
  return send(cfg, it, type, req, body, jar, expectedOf);
}

/** One arrival (Poisson with `arrivals: exponential`, as Gatling's `randomized`; see scenario-r.js). */
export function scenarioOriginal(ctx) {
  const cfg = ctx.cfg;
  if (cfg.arrivals === 'exponential' && Math.random() >= 1 / cfg.oversample) return;
  const vu = exec.vu;
  const vuMetrics = vu.metrics;
  vuMetrics.tags.stage = stageOf(Date.now(), ctx.startMs, cfg.rampS);
  iterationsStarted.add(1);
  requestsPlanned.add(REQUESTS_PER_ITERATION);
  const it = { cause: null, vuMetrics, vuId: vu.idInTest, iteration: exec.scenario.iterationInTest };
  playIteration(it, (i) => user(ctx, i));
}

function user(ctx, it) {
  const cfg = ctx.cfg;
  const u = userFor(ctx.users, it.iteration);
  // A fresh jar per user: Gatling's session cookies.
  let jar = new http.CookieJar();
  group('login', () => pair(cfg, it, 'login', JSON.stringify({ email: u.email, password: u.password }), jar, (res) => loginExpected(res.status, res.body)));
  // doIfOrElse(access_token != null): without the cookie the user stops, whatever the login's outcome.
  if (!check(jar.cookiesForURL(cfg.baseUrl + '/api/auth/verify'), { 'login set an access_token cookie': (c) => Boolean(c.access_token) })) {
    if (it.cause === null) it.cause = 'no_session_cookie';
    return;
  }
  sleep(cfg.pauseS);
  group('verify', () => pair(cfg, it, 'verify', null, jar));
  sleep(cfg.pauseS);
  const sps = group('sps', () => pair(cfg, it, 'sps', spsBodyOf(u, ctx.productionData), jar));
  if (cfg.logSps) {
    console.log(JSON.stringify({
      sg: 'sps', trace_id: sps.traceId, span_id: sps.spanId, start_ms: sps.startedMs,
      duration_ms: sps.ms, status: sps.res.status, outcome: sps.outcome, error_code: sps.res.error_code,
      ep_id: productionIdOf(sps.res.body), vu: it.vuId, iteration: it.iteration,
    }));
  }
  sleep(cfg.pauseS);
  group('logout', () => pair(cfg, it, 'logout', null, jar));
  // flushSessionCookies(): the last verify carries no cookie at all.
  jar = new http.CookieJar();
  sleep(cfg.pauseS);
  group('verify_out', () => pair(cfg, it, 'verify_out', null, jar));
  sleep(cfg.pauseS);
}

function spsBodyOf(user, productionData) {
  const key = user.ex_id + '/' + user.ps_id;
  const known = spsBodies[key];
  if (known !== undefined) return known;
  return (spsBodies[key] = spsBody(user, productionData));
}

function productionIdOf(body) {
  try {
    const id = JSON.parse(body).ep_id;
    return Number.isInteger(id) ? id : null;
  } catch (e) {
    return null;
  }
}
