// Scenario R of the paper (§IV-A): five request pairs (CORS preflight OPTIONS, then the call),
// each followed by a pause; each pair (with its retries) is a k6 group() named by its request
// type. The `group` tag stays off every sample (options.systemTags in benchmarks/sps.js): the
// metric names and tag sets the reports read are those of the requests, as without groups. A fresh cookie jar per iteration is one browser session; the
// remaining requests are skipped when login fails; the last verify must answer 401.
import http from 'k6/http';
import { check, group, sleep } from 'k6';
import exec from 'k6/execution';
import { iterationsStarted, playIteration, recordFeedback, recordPoll, recordRefused, recordResponse, requestsPlanned } from './metrics.js';
import { retryAfterS, spsOkStatuses, stageOf } from './outcome.js';
import { newTraceparent } from './traceparent.js';
import { spsBody } from './sps-body.js';
import { stepIndexAt } from './steps.js';
import { userFor } from './users.js';

const OK_STATUSES = [200, 201, 304];
// Preflights: a CORS middleware answers 204 No Content by default.
const PREFLIGHT_OK_STATUSES = [200, 204, 304];
const LOGGED_OUT_STATUSES = [401];
const REQUESTS_PER_ITERATION = 10;
const JSON_BODY = { 'Content-Type': 'application/json' };

// Preflights never carry credentials, so they use a jar that stays empty.
const noCookies = new http.CookieJar();

// k6's own CPU per iteration bounds every overload test on one machine: what
// does not change between requests is built once per VU — each request's params (headers,
// tags, expected statuses, timeout), its check and its preflight — and a request only fills in
// its traceparent and cookie jar. http.request reads params synchronously, so one VU (one
// thread) can reuse them.
const plans = {};
const spsBodies = {};

/**
 * The params, check and preflight of one request type, built on first use in this VU.
 * `p` = { cfg, type, method, path, expected (OK statuses), headers ({} default), keepBody (false default) }.
 */
function planOf(p) {
  const cfg = p.cfg;
  const type = p.type;
  const method = p.method;
  const expected = p.expected;
  const headers = p.headers || {};
  const known = plans[type];
  if (known !== undefined) return known;
  const params = {
    headers: Object.assign({ Origin: cfg.origin, traceparent: '' }, headers),
    jar: null,
    timeout: cfg.timeoutS + 's',
    redirects: 0,
    tags: { name: type },
    responseCallback: http.expectedStatuses.apply(null, expected),
  };
  if (p.keepBody) params.responseType = 'text';
  const checks = {};
  checks[type + ' answered ' + expected.join('/')] = (r) => r.outcome === 'ok';
  const plan = { type, url: cfg.baseUrl + p.path, method, expected, params, checks, preflight: null };
  if (type.indexOf('opt_') !== 0) {
    plan.preflight = planOf({
      cfg,
      type: 'opt_' + type,
      method: 'OPTIONS',
      path: p.path,
      expected: PREFLIGHT_OK_STATUSES,
      headers: {
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': Object.keys(headers).concat(['traceparent']).map((h) => h.toLowerCase()).join(','),
      },
    });
  }
  plans[type] = plan;
  return plan;
}

/**
 * One request, classified and recorded. `r` = { cfg, it (the iteration), plan (planOf), body
 * (null: none), jar, retryable }. `retryable`: a 503 + Retry-After is not recorded as the
 * request's outcome but returned as `{ refused: true, retryAfterS }` for the caller to wait out.
 */
function send(r) {
  const cfg = r.cfg;
  const it = r.it;
  const plan = r.plan;
  const retryable = r.retryable === true;
  const tp = newTraceparent();
  const params = plan.params;
  params.headers.traceparent = tp.header;
  params.jar = r.jar;
  const type = plan.type;
  // The SPS sample carries its trace id as non-indexed metadata (raw `--out json` output)
  // without creating one time series per trace (k6 memory stays bounded).
  if (type === 'sps') it.vuMetrics.metadata.trace_id = tp.traceId;
  const startedMs = Date.now();
  const res = http.request(plan.method, plan.url, r.body === undefined ? null : r.body, params);
  if (type === 'sps') delete it.vuMetrics.metadata.trace_id;
  // Headers are read (a JS object built from Go) only for the one status that may be a refusal.
  const waitS = retryable && res.status === 503 ? retryAfterS(res.status, res.headers) : null;
  if (waitS !== null) {
    recordRefused(type, waitS);
    return { res, refused: true, retryAfterS: waitS, startedMs };
  }
  const rec = recordResponse(type, res, plan.expected, cfg);
  if (rec.cause !== null && it.cause === null) it.cause = rec.cause;
  if (cfg.logRequests) {
    console.log(JSON.stringify({ sg: 'req', t: startedMs, ms: Math.round(rec.ms), type, outcome: rec.outcome, cause: rec.cause, step: it.step }));
  }
  check(rec, plan.checks);
  return { res, outcome: rec.outcome, ms: rec.ms, startedMs, traceId: tp.traceId, spanId: tp.spanId };
}

/** The request's CORS preflight (no credentials), then the request: `r` as for send(). */
function pair(r) {
  send({ cfg: r.cfg, it: r.it, plan: r.plan.preflight, body: null, jar: noCookies, retryable: false });
  return send(r);
}

/**
 * One arrival of the open model. With `arrivals: exponential` the executor ticks `oversample`
 * times faster and each tick starts a user with probability 1/oversample: the gaps between users
 * are then geometric on a fine grid, i.e. close to exponential (a Poisson process, as Gatling's
 * `randomized` injection), instead of k6's evenly spaced arrivals.
 * `ctx` = { cfg, users (SharedArray), productionData (JSON text), startMs (load start) }.
 */
export function scenarioR(ctx) {
  const cfg = ctx.cfg;
  if (cfg.arrivals === 'exponential' && Math.random() >= 1 / cfg.oversample) return;
  // Every metric of this iteration carries the stage it started in (tables use the hold stage).
  const now = Date.now();
  // Each read of exec.vu / exec.scenario builds a new object in k6: read once per iteration.
  const vu = exec.vu;
  const vuMetrics = vu.metrics;
  vuMetrics.tags.stage = stageOf(now, ctx.startMs, cfg.rampS);
  // Suites: the step the iteration started in (its requests count in that step's table).
  const step = cfg.schedule ? stepIndexAt((now - ctx.startMs) / 1000, cfg.schedule) : null;
  if (step !== null) vuMetrics.tags.step = String(step);
  iterationsStarted.add(1);
  requestsPlanned.add(REQUESTS_PER_ITERATION);
  if (cfg.logRequests) console.log(JSON.stringify({ sg: 'it', t: now, step }));
  // `it.cause`: the first KO of this iteration, i.e. why the student did not get through R.
  const it = { cause: null, step, vuMetrics, vuId: vu.idInTest, iteration: exec.scenario.iterationInTest };
  playIteration(it, (i) => userR(ctx, i));
}

/** Scenario R for one student. Requests after a failed login are not sent (counted in N, not in OK/KO). */
function userR(ctx, it) {
  const cfg = ctx.cfg;
  const user = userFor(ctx.users, it.iteration);
  const jar = new http.CookieJar();

  const login = group('login', () => logIn(cfg, it, JSON.stringify({ email: user.email, password: user.password }), jar));
  if (login.outcome !== 'ok') return;
  const verify = planOf({ cfg, type: 'verify', method: 'GET', path: '/api/auth/verify', expected: OK_STATUSES });
  const session = jar.cookiesForURL(verify.url);
  if (!check(session, { 'login set an access_token cookie': (c) => Boolean(c.access_token) })) {
    if (it.cause === null) it.cause = 'no_session_cookie';
    return;
  }
  sleep(cfg.pauseS);

  group('verify', () => pair({ cfg, it, plan: verify, jar }));
  sleep(cfg.pauseS);

  const sps = group('sps', () => submit(cfg, it, spsBodyOf(user, ctx.productionData), jar));
  awaitFeedback(cfg, sps, jar);
  if (cfg.logSps) {
    // One line per SPS so traces/ can match the client duration to its Jaeger trace, and the
    // zero-loss audit can match what the client was told to what the database kept.
    console.log(JSON.stringify({
      sg: 'sps', trace_id: sps.traceId, span_id: sps.spanId, start_ms: sps.startedMs,
      duration_ms: sps.ms, status: sps.res.status, outcome: sps.outcome, error_code: sps.res.error_code,
      ep_id: productionIdOf(sps.res.body), vu: it.vuId, iteration: it.iteration,
    }));
  }
  sleep(cfg.pauseS);

  const logout = planOf({ cfg, type: 'logout', method: 'DELETE', path: '/api/user/logout', expected: OK_STATUSES });
  group('logout', () => pair({ cfg, it, plan: logout, jar }));
  sleep(cfg.pauseS);

  const verifyOut = planOf({ cfg, type: 'verify_out', method: 'GET', path: '/api/auth/verify', expected: LOGGED_OUT_STATUSES });
  group('verify_out', () => pair({ cfg, it, plan: verifyOut, jar }));
  sleep(cfg.pauseS);
}

/** The SPS body of a user: the same text for every user of one exercise and session (kept per VU). */
function spsBodyOf(user, productionData) {
  const key = user.ex_id + '/' + user.ps_id;
  const known = spsBodies[key];
  if (known !== undefined) return known;
  return (spsBodies[key] = spsBody(user, productionData));
}

/**
 * The SPS. With honourRetryAfter the student, refused with 503 + Retry-After, waits as told and
 * sends the same submission again (same Idempotency-Key: never stored twice), at most maxRetries
 * times; the refused attempts are counted apart (sg_sps_refused, outside N) and the last answer is
 * the SPS's outcome. Its startedMs stays the first attempt's: time to feedback is what the student
 * waited, refusals included. Retries skip the preflight (a browser caches it).
 */
function submit(cfg, it, body, jar) {
  const retrying = cfg.honourRetryAfter && cfg.maxRetries > 0;
  const headers = retrying ? { 'Content-Type': 'application/json', 'Idempotency-Key': '' } : JSON_BODY;
  const plan = planOf({ cfg, type: 'sps', method: 'POST', path: '/api/exercise-production', expected: spsOkStatuses(cfg.reply), headers, keepBody: true });
  // Unique per submission and per test (runs may share a database): a retry is the same submission.
  if (retrying) plan.params.headers['Idempotency-Key'] = `k6-${Date.now()}-${it.vuId}-${it.iteration}`;
  let sps = pair({ cfg, it, plan, body, jar, retryable: retrying });
  const firstStartedMs = sps.startedMs;
  for (let retry = 1; sps.refused; retry++) {
    sleep(sps.retryAfterS);
    sps = send({ cfg, it, plan, body, jar, retryable: retry < cfg.maxRetries });
  }
  sps.startedMs = firstStartedMs;
  return sps;
}

/**
 * The login. With honourRetryAfter a student refused with 503 + Retry-After (a bounded password
 * check) waits as told and logs in again, at most maxRetries times; refusals are counted apart
 * (sg_login_refused, outside N) and the last answer is the login's outcome.
 */
function logIn(cfg, it, body, jar) {
  const retrying = cfg.honourRetryAfter && cfg.maxRetries > 0;
  const plan = planOf({ cfg, type: 'login', method: 'POST', path: '/api/user/login', expected: OK_STATUSES, headers: JSON_BODY });
  let login = pair({ cfg, it, plan, body, jar, retryable: retrying });
  for (let retry = 1; login.refused; retry++) {
    sleep(login.retryAfterS);
    login = send({ cfg, it, plan, body, jar, retryable: retry < cfg.maxRetries });
  }
  return login;
}

/**
 * Time to feedback, what the student actually waits for: the SPS answer itself when it carries
 * the grade (201), otherwise (202: async reply, or a sync reply that timed out) polling
 * GET /api/exercise-production/:ep_id as a well-behaved SPA does — after pollS, then doubling up
 * to pollMaxS (fixed 1 s polling by hundreds of waiting students is itself an overload) — until
 * the production is final or the request timeout has passed since the SPS. Polls are extra
 * requests, outside N.
 */
function awaitFeedback(cfg, sps, jar) {
  if (sps.res.status === 201) {
    recordFeedback(sps.res.status, Date.now() - sps.startedMs, true);
    return;
  }
  if (sps.res.status !== 202) return; // a failed SPS has no feedback to wait for
  group('poll', () => pollFeedback(cfg, sps, jar));
}

function pollFeedback(cfg, sps, jar) {
  const epId = productionIdOf(sps.res.body);
  const deadline = sps.startedMs + cfg.timeoutS * 1000;
  let waitS = cfg.pollS;
  while (epId !== null && Date.now() + waitS * 1000 < deadline) {
    sleep(waitS);
    waitS = Math.min(waitS * 2, cfg.pollMaxS);
    const res = http.get(`${cfg.baseUrl}/api/exercise-production/${epId}`, {
      headers: { Origin: cfg.origin, traceparent: newTraceparent().header },
      jar,
      timeout: `${cfg.timeoutS}s`,
      redirects: 0,
      tags: { name: 'poll' },
      responseType: 'text',
      responseCallback: http.expectedStatuses(200),
    });
    recordPoll(res.status);
    const status = res.status === 200 ? statusOf(res.body) : null;
    if (status === 'graded' || status === 'failed') {
      recordFeedback(202, Date.now() - sps.startedMs, true);
      return;
    }
  }
  recordFeedback(202, Date.now() - sps.startedMs, false);
}

function productionIdOf(body) {
  try {
    const id = JSON.parse(body).ep_id;
    return Number.isInteger(id) ? id : null;
  } catch (e) {
    return null;
  }
}

function statusOf(body) {
  try {
    return JSON.parse(body).status;
  } catch (e) {
    return null;
  }
}
