// The paper's load test (000 ShellOnYou §IV) for any variant:
//   k6 run -e PROFILE=smoke -e BASE_URL=http://127.0.0.1:3000 -e USERS_CSV=/abs/users.csv benchmarks/sps.js
// Environment: PROFILE (paper|small|smoke), BASE_URL, USERS_CSV, ARCHIVE, PEAK, RAMP_S, HOLD_S,
// PRODUCTION_DATA (a production_data JSON file instead of building it from ARCHIVE), PAUSE_S, TIMEOUT_S, APDEX_T_MS, APDEX_F_MS, THRESHOLDS (on|off), LOG_SPS (on|off),
// LOG_REQUESTS (on|off: one line per request, suites), STEPS (JSON [{rate, holdS}], suites), TRANSITION_S,
// CONNECTION_REUSE (on|off), ARRIVALS (even|exponential), ARRIVALS_OVERSAMPLE,
// SUMMARY_JSON / SUMMARY_TXT (output paths). See benchmarks/README.md.
import { SharedArray } from 'k6/data';
import { loadConfig, scenarioOptions, thresholdOptions } from '../k6/lib/config.js';
import { REQUEST_TYPES, stageThresholds } from '../k6/lib/metrics.js';
import { paperMetricsByStage } from '../k6/lib/paper-metrics.js';
import { scenarioR } from '../k6/lib/scenario-r.js';
import { productionDataJson } from '../k6/lib/sps-body.js';
import { summaryText } from '../k6/lib/summary-text.js';
import { parseUsersCsv } from '../k6/lib/users.js';

const profiles = JSON.parse(open(import.meta.resolve('../k6/profiles.json')));
const cfg = loadConfig(__ENV, profiles);

const DEFAULT_ARCHIVE = import.meta.resolve('../libs/grading/catalog/build/paper-scripts/good.tgz');
const DEFAULT_USERS = import.meta.resolve('../results/users.csv');

const users = new SharedArray('users', () => parseUsersCsv(open(__ENV.USERS_CSV || DEFAULT_USERS)));
// The SPS's production_data as JSON text. PRODUCTION_DATA: a file the runner wrote once
// (benchmarks/src/production-data.ts) — open() of a text file costs a VU almost nothing, where
// decoding this ~9 KB string from a SharedArray costs each VU ~4.5 ms (issue 31 item 4).
// Without it (a hand-run k6), built from ARCHIVE.
const productionData = __ENV.PRODUCTION_DATA
  ? open(__ENV.PRODUCTION_DATA)
  : new SharedArray('production_data', () => [productionDataJson('answer.tgz', open(__ENV.ARCHIVE || DEFAULT_ARCHIVE, 'b'))])[0];

export const options = {
  scenarios: { r: scenarioOptions(cfg) },
  thresholds: Object.assign(stageThresholds(), thresholdOptions(cfg)),
  // Gatling (the paper's client) gives every virtual user its own connections.
  noVUConnectionReuse: !cfg.connectionReuse,
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(95)', 'p(99)', 'count'],
  discardResponseBodies: true,
  // Checks and the many counters are enough; one sample per request is kept in the trends only.
  systemTags: ['status', 'method', 'name', 'scenario', 'expected_response', 'error_code'],
};

export function setup() {
  const startMs = Date.now();
  // The runner judges k6's CPU from here on: VU initialisation before it sends no request.
  console.log(JSON.stringify({ sg: 'start', start_ms: startMs }));
  return { startMs };
}

export default function (data) {
  scenarioR({ cfg, users, productionData, startMs: data.startMs });
}

export function handleSummary(data) {
  const durationS = data.state.testRunDurationMs / 1000;
  const paper = paperMetricsByStage(data.metrics, durationS, cfg, REQUEST_TYPES);
  const text = summaryText(paper, cfg);
  const out = {
    stdout: '\n' + text,
  };
  out[__ENV.SUMMARY_JSON || 'results/k6-summary.json'] = JSON.stringify({
    schema: 'shellgrade.k6-summary/1',
    config: cfg,
    users: users.length,
    paper,
    k6: data,
  }, null, 2);
  out[__ENV.SUMMARY_TXT || 'results/k6-summary.txt'] = text;
  return out;
}
