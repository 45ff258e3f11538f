// Paper 001's closed-model thread sweep over the S1 or S2 request class, for any variant:
//   k6 run -e SG_K6_OPTIONS=/abs/k6-options.json benchmarks/sweep.js
// One options file (schema shellgrade.k6-options/1, script "sweep": benchmarks/src/k6-options.ts):
// profile (sweep | sweep-scaled | sweep-smoke: k6/profiles.json), class (s1 | s2), baseUrl,
// usersCsv, vus (list, overrides the profile's), rampS, holdS, gapS, timeoutS, teacherEmail /
// teacherPassword (the seeded session's teacher), summaryJson. Without a file, every default.
//   S1: small requests each served by one service — GET a student statement (exercise), GET one
//       production (exercise), POST then DELETE an enrolment (leftover) in a session of its own.
//   S2: GET the seeded session's report (leftover computes it from every production of the
//       session, pulled from the exercise service in msa variants).
// See benchmarks/README.md, "Sweep (paper 001)".
import http from 'k6/http';
import exec from 'k6/execution';
import { SharedArray } from 'k6/data';
import { checkSweep, phaseAt, SWEEP_CLASSES, sweepScenarios, sweepSchedule, sweepThresholds } from '../k6/lib/sweep.js';
import { parseUsersCsv } from '../k6/lib/users.js';
import { numberOption, readOptions, urlOption } from '../k6/lib/options.js';

const profiles = JSON.parse(open(import.meta.resolve('../k6/profiles.json')));
const sg = readOptions(__ENV, (file) => open(file), 'sweep');
const profileName = sg.profile || 'sweep-smoke';
const profile = profiles[profileName];
if (!profile || !profile.sweep) throw new Error(`profile "${profileName}" is not a sweep profile`);
const sweep = checkSweep({
  vus: sg.vus || profile.sweep.vus,
  rampS: numberOption(sg, 'rampS', profile.sweep.rampS),
  holdS: numberOption(sg, 'holdS', profile.sweep.holdS),
});
const gapS = numberOption(sg, 'gapS', profile.sweep.gapS === undefined ? 5 : profile.sweep.gapS);
const timeoutS = numberOption(sg, 'timeoutS', profile.timeoutS || 60);
const klass = sg.class || 's1';
if (SWEEP_CLASSES.indexOf(klass) < 0) throw new Error(`class must be one of ${SWEEP_CLASSES.join(', ')}, got "${klass}"`);
const baseUrl = urlOption(sg, 'baseUrl', 'http://127.0.0.1:3000');
const schedule = sweepSchedule(sweep, gapS);
const SEEDED_SESSION = 'Seeded session';
const SEEDED_SEQUENCE = 'Seeded sequence';

const users = new SharedArray('users', () => parseUsersCsv(open(sg.usersCsv || import.meta.resolve('../results/users.csv'))));

export const options = {
  scenarios: sweepScenarios(schedule, sweep, gapS),
  thresholds: sweepThresholds(schedule),
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)', 'count'],
  discardResponseBodies: true,
  systemTags: ['status', 'method', 'name', 'scenario', 'expected_response', 'error_code'],
  setupTimeout: '120s',
};

function login() {
  const email = sg.teacherEmail || 'teacher1@shellgrade.test';
  const res = http.post(`${baseUrl}/api/user/login`, JSON.stringify({ email, password: sg.teacherPassword || 'teacher-password' }), {
    headers: { 'Content-Type': 'application/json' },
    responseType: 'text',
    tags: { name: 'login', phase: 'setup' },
  });
  const cookie = res.cookies.access_token && res.cookies.access_token[0];
  if (res.status !== 200 || !cookie) throw new Error(`teacher login: ${res.status} ${res.body}`);
  return cookie.value;
}

function getJson(path, token) {
  const res = http.get(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${token}` }, responseType: 'text', tags: { name: 'setup', phase: 'setup' } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body}`);
  return JSON.parse(res.body);
}

export function setup() {
  const token = login();
  const sessions = getJson('/api/business-sessions?limit=1000', token);
  const seeded = sessions.find((s) => s.name === SEEDED_SESSION);
  if (!seeded) throw new Error(`no "${SEEDED_SESSION}": seed the database first (npm run db -- seed)`);
  const productions = getJson('/api/exercise-productions?limit=1000', token).map((p) => p.ep_id);
  let enrolSessionId = null;
  if (klass === 's1') {
    // A session of its own: the sweep enrols and unenrols students there, never in the seeded one.
    const sequence = getJson('/api/sequences?limit=1000', token).find((s) => s.name === SEEDED_SEQUENCE);
    const now = Date.now();
    const res = http.post(
      `${baseUrl}/api/business-session`,
      JSON.stringify({ name: `sweep ${now}`, sequence_id: sequence.sequence_id, starts_at: new Date(now - 3600e3).toISOString(), ends_at: new Date(now + 86400e3).toISOString() }),
      { headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, responseType: 'text', tags: { name: 'setup', phase: 'setup' } },
    );
    if (res.status !== 201) throw new Error(`create the sweep session: ${res.status} ${res.body}`);
    enrolSessionId = JSON.parse(res.body).session_id;
  }
  const startMs = Date.now();
  console.log(JSON.stringify({ sg: 'start', start_ms: startMs }));
  return { token, reportSessionId: seeded.session_id, enrolSessionId, productions, startMs };
}

let token = null;

/** One request of the sweep, tagged with its step and phase; a 401 (token expired in a long sweep) logs in again once. */
function send(method, path, body, name) {
  const step = Number(exec.scenario.name.slice('step_'.length));
  const phase = phaseAt((Date.now() - exec.scenario.startTime) / 1000, sweep);
  const params = {
    headers: Object.assign({ Authorization: `Bearer ${token}` }, body === null ? {} : { 'Content-Type': 'application/json' }),
    timeout: `${timeoutS}s`,
    tags: { name, step: String(step), phase },
    responseCallback: http.expectedStatuses(200, 201),
  };
  let res = http.request(method, `${baseUrl}${path}`, body, params);
  if (res.status === 401) {
    token = login();
    params.headers.Authorization = `Bearer ${token}`;
    res = http.request(method, `${baseUrl}${path}`, body, params);
  }
  return res;
}

export default function (data) {
  if (token === null) token = data.token;
  if (klass === 's2') {
    send('GET', `/api/business-session/${data.reportSessionId}/report`, null, 's2_report');
    return;
  }
  const u = users[(exec.vu.idInTest - 1) % users.length];
  send('GET', `/api/student-statement/${u.ps_id}`, null, 's1_read_statement');
  if (data.productions.length > 0) {
    send('GET', `/api/exercise-production/${data.productions[exec.vu.iterationInInstance % data.productions.length]}`, null, 's1_read_production');
  }
  send('POST', `/api/business-session/${data.enrolSessionId}/enrolments`, JSON.stringify({ user_ids: [Number(u.user_id)] }), 's1_enrol');
  send('DELETE', `/api/business-session/${data.enrolSessionId}/enrolments/${u.user_id}`, null, 's1_unenrol');
}

export function handleSummary(data) {
  const out = { stdout: `sweep ${klass} on ${baseUrl}: ${schedule.length} steps (${sweep.vus.join(', ')} VUs)\n` };
  out[sg.summaryJson || 'results/k6-sweep.json'] = JSON.stringify(
    { schema: 'shellgrade.k6-sweep/1', config: { profile: profileName, class: klass, baseUrl, sweep, gapS, timeoutS, schedule }, k6: data },
    null,
    2,
  );
  return out;
}
