// Paper 003's heterogeneous request mixes for one gateway pattern, on any variant:
//   k6 run -e SG_K6_OPTIONS=/abs/k6-options.json benchmarks/mix.js
// One options file (schema shellgrade.k6-options/1, script "mix": benchmarks/src/k6-options.ts):
// profile (mix | mix-scaled | mix-smoke: k6/profiles.json), pattern (aggregation | offloading |
// pipeline), aggregated (true: the gateway answers GET /api/dashboard; false: the client builds
// the page from three calls), baseUrl, usersCsv, ps (list, overrides the profile's), vus, rampS,
// holdS, gapS, timeoutS, summaryJson. Without a file, every default.
// Request types (benchmarks/README.md, "Mix"), each measured as the time the user waits for it:
//   aggregation  r1 = the student's dashboard (sessions, statements, last grades: one call or three)
//                r2 = a submission of a correct archive (graded by the exercise service)
//   offloading   r1 = GET /api/user/me (leftover)  r2 = GET /api/student-statements (exercise)
//   pipeline     r1 = a correct archive (every check runs)  r2 = a wrong one (grading stops early)
import http from 'k6/http';
import exec from 'k6/execution';
import { SharedArray } from 'k6/data';
import { Rate, Trend } from 'k6/metrics';
import { checkMix, MIX_PATTERNS, mixScenarios, mixSchedule, mixThresholds, pickType } from '../k6/lib/mix.js';
import { phaseAt } from '../k6/lib/sweep.js';
import { booleanOption, numberOption, readOptions, urlOption } from '../k6/lib/options.js';
import { productionDataJson, spsBody } from '../k6/lib/sps-body.js';
import { parseUsersCsv } from '../k6/lib/users.js';

const profiles = JSON.parse(open(import.meta.resolve('../k6/profiles.json')));
const sg = readOptions(__ENV, (file) => open(file), 'mix');
const profileName = sg.profile || 'mix-smoke';
const profile = profiles[profileName];
if (!profile || !profile.mix) throw new Error(`profile "${profileName}" is not a mix profile`);
const mix = checkMix({
  ps: sg.ps || profile.mix.ps,
  vus: numberOption(sg, 'vus', profile.mix.vus),
  rampS: numberOption(sg, 'rampS', profile.mix.rampS),
  holdS: numberOption(sg, 'holdS', profile.mix.holdS),
});
const gapS = numberOption(sg, 'gapS', profile.mix.gapS === undefined ? 5 : profile.mix.gapS);
const timeoutS = numberOption(sg, 'timeoutS', profile.timeoutS || 60);
const pattern = sg.pattern || 'aggregation';
if (MIX_PATTERNS.indexOf(pattern) < 0) throw new Error(`pattern must be one of ${MIX_PATTERNS.join(', ')}, got "${pattern}"`);
const aggregated = booleanOption(sg, 'aggregated', false);
const baseUrl = urlOption(sg, 'baseUrl', 'http://127.0.0.1:3100');
const schedule = mixSchedule(mix, gapS);

const users = new SharedArray('users', () => parseUsersCsv(open(sg.usersCsv || import.meta.resolve('../results/users.csv'))));
const GOOD = productionDataJson('answer.tgz', open(import.meta.resolve('../libs/grading/catalog/build/paper-scripts/good.tgz'), 'b'));
const WRONG = productionDataJson('answer.tgz', open(import.meta.resolve('../libs/grading/catalog/build/paper-scripts/bad-not-executable.tgz'), 'b'));

/** What the user waited for one request of a type (a page built from three calls: all three). */
const mixRt = new Trend('mix_rt', true);
const mixOk = new Rate('mix_ok');

export const options = {
  scenarios: mixScenarios(schedule, mix, gapS),
  thresholds: mixThresholds(schedule),
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)', 'count'],
  discardResponseBodies: true,
  systemTags: ['status', 'method', 'name', 'scenario', 'expected_response', 'error_code'],
  setupTimeout: '600s',
};

function login(u) {
  const res = http.post(`${baseUrl}/api/user/login`, JSON.stringify({ email: u.email, password: u.password }), {
    headers: { 'Content-Type': 'application/json' },
    tags: { name: 'login', phase: 'setup' },
  });
  const cookie = res.cookies.access_token && res.cookies.access_token[0];
  if (res.status !== 200 || !cookie) throw new Error(`login ${u.email}: ${res.status}`);
  return cookie.value;
}

/** Every student logged in once, up front: a mix measures its two request types, not logins (scrypt). */
export function setup() {
  const tokens = users.map((u) => login(u));
  const startMs = Date.now();
  console.log(JSON.stringify({ sg: 'start', start_ms: startMs }));
  return { tokens, startMs };
}

const tokens = {};

/** One call as user `i`; a 401 (token expired in a long mix) logs that user in again once. */
function call(i, method, path, body, name, tags, data) {
  const u = users[i];
  if (tokens[i] === undefined) tokens[i] = data.tokens[i];
  const params = {
    headers: Object.assign({ Authorization: `Bearer ${tokens[i]}` }, body === null ? {} : { 'Content-Type': 'application/json' }),
    timeout: `${timeoutS}s`,
    tags: Object.assign({ name }, tags),
    responseCallback: http.expectedStatuses(200, 201, 202),
  };
  let res = http.request(method, `${baseUrl}${path}`, body, params);
  if (res.status === 401) {
    tokens[i] = login(u);
    params.headers.Authorization = `Bearer ${tokens[i]}`;
    res = http.request(method, `${baseUrl}${path}`, body, params);
  }
  return res;
}

const okAll = (responses) => responses.every((r) => r.status === 200 || r.status === 201 || r.status === 202);

/** The requests of one type for user i; returns the responses it waited for. */
function requestsOf(type, i, tags, data) {
  const u = users[i];
  const submit = (archive, name) => [call(i, 'POST', '/api/exercise-production', spsBody(u, archive), name, tags, data)];
  if (pattern === 'aggregation') {
    if (type === 'r2') return submit(GOOD, 'submission');
    if (aggregated) return [call(i, 'GET', '/api/dashboard', null, 'dashboard', tags, data)];
    return [
      call(i, 'GET', '/api/business-sessions?limit=1000', null, 'dashboard_sessions', tags, data),
      call(i, 'GET', '/api/student-statements?limit=1000', null, 'dashboard_statements', tags, data),
      call(i, 'GET', '/api/exercise-productions?limit=1000', null, 'dashboard_productions', tags, data),
    ];
  }
  if (pattern === 'offloading') {
    return type === 'r1'
      ? [call(i, 'GET', '/api/user/me', null, 'leftover_me', tags, data)]
      : [call(i, 'GET', '/api/student-statements?limit=10', null, 'exercise_statements', tags, data)];
  }
  return type === 'r1' ? submit(GOOD, 'archive_correct') : submit(WRONG, 'archive_wrong');
}

export default function (data) {
  const step = Number(exec.scenario.name.slice('step_'.length));
  const phase = phaseAt((Date.now() - exec.scenario.startTime) / 1000, mix);
  const type = pickType(schedule[step].p, Math.random());
  // Students in turn across VUs and iterations: the per-student submission limit is never the bottleneck.
  const i = (exec.vu.idInTest * 7919 + exec.vu.iterationInInstance) % users.length;
  const tags = { step: String(step), phase, type };
  const started = Date.now();
  const responses = requestsOf(type, i, tags, data);
  mixRt.add(Date.now() - started, tags);
  mixOk.add(okAll(responses), tags);
}

export function handleSummary(data) {
  const out = { stdout: `mix ${pattern} on ${baseUrl}: ${schedule.length} steps (p(r1) ${mix.ps.join(', ')}, ${mix.vus} VUs)\n` };
  out[sg.summaryJson || 'results/k6-mix.json'] = JSON.stringify(
    { schema: 'shellgrade.k6-mix/1', config: { profile: profileName, pattern, aggregated, baseUrl, mix, gapS, timeoutS, schedule }, k6: data },
    null,
    2,
  );
  return out;
}
