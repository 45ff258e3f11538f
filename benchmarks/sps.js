// The paper's load test (000 ShellOnYou §IV) for any variant, played by scenario R's client or,
// with a profile whose client is "original" (k6/profiles.json), by the original load test's:
//   k6 run -e SG_K6_OPTIONS=/abs/k6-options.json benchmarks/sps.js
// One options file (schema shellgrade.k6-options/1, script "sps": benchmarks/src/k6-options.ts):
// profile (paper|small|smoke|…), baseUrl, usersCsv, archive, productionData (a production_data
// JSON file instead of building it from archive), summaryJson / summaryTxt (output paths), logSps,
// logRequests (one line per request, suites), reply, and overrides of the profile: peak, rampS,
// holdS, pauseS, timeoutS, apdexTMs, apdexFMs, thresholds, pollS, pollMaxS, connectionReuse,
// arrivals (even|exponential), oversample, honourRetryAfter, maxRetries, steps ([{rate, holdS}],
// suites), transitionS. Without a file, every default. See benchmarks/README.md, "Options file".
import { SharedArray } from 'k6/data';
import { loadConfig, scenarioOptions, thresholdOptions } from '../k6/lib/config.js';
import { readOptions } from '../k6/lib/options.js';
import { REQUEST_TYPES, stageThresholds } from '../k6/lib/metrics.js';
import { paperMetricsByStage } from '../k6/lib/paper-metrics.js';
import { scenarioR } from '../k6/lib/scenario-r.js';
import { scenarioOriginal } from '../k6/lib/scenario-original.js';
import { sleep } from 'k6';
import { productionDataJson } from '../k6/lib/sps-body.js';
import { summaryText } from '../k6/lib/summary-text.js';
import { parseUsersCsv } from '../k6/lib/users.js';

const profiles = JSON.parse(open(import.meta.resolve('../k6/profiles.json')));
const sg = readOptions(__ENV, (file) => open(file), 'sps');
const cfg = loadConfig(sg, profiles);

const DEFAULT_ARCHIVE = import.meta.resolve('../libs/grading/catalog/build/paper-scripts/good.tgz');
const DEFAULT_USERS = import.meta.resolve('../results/users.csv');

const users = new SharedArray('users', () => parseUsersCsv(open(sg.usersCsv || DEFAULT_USERS)));
// The SPS's production_data as JSON text. productionData: a file the runner wrote once
// (benchmarks/src/production-data.ts) — open() of a text file costs a VU almost nothing, where
// decoding this ~9 KB string from a SharedArray costs each VU ~4.5 ms.
// Without it (a hand-run k6), built from archive.
const productionData = sg.productionData
  ? open(sg.productionData)
  : new SharedArray('production_data', () => [productionDataJson('answer.tgz', open(sg.archive || DEFAULT_ARCHIVE, 'b'))])[0];

export const options = {
  scenarios: { r: scenarioOptions(cfg) },
  thresholds: Object.assign(stageThresholds(), thresholdOptions(cfg)),
  // Gatling (the paper's client) gives every virtual user its own connections.
  noVUConnectionReuse: !cfg.connectionReuse,
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(95)', 'p(99)', 'count'],
  discardResponseBodies: true,
  // Checks and the many counters are enough; one sample per request is kept in the trends only.
  systemTags: ['status', 'method', 'name', 'scenario', 'expected_response', 'error_code'],
  // The quiet spell is spent in setup: k6's default setup timeout is 60 s.
  setupTimeout: `${Math.ceil(cfg.quietS) + 60}s`,
};

const scenario = cfg.client === 'original' ? scenarioOriginal : scenarioR;

export function setup() {
  // The original's `nothingFor`: the system sees no request for quietS before the load (its ramp) starts.
  if (cfg.quietS > 0) sleep(cfg.quietS);
  const startMs = Date.now();
  // The runner judges k6's CPU from here on: VU initialisation before it sends no request.
  console.log(JSON.stringify({ sg: 'start', start_ms: startMs }));
  return { startMs };
}

export default function (data) {
  scenario({ cfg, users, productionData, startMs: data.startMs });
}

export function handleSummary(data) {
  const durationS = data.state.testRunDurationMs / 1000;
  const paper = paperMetricsByStage(data.metrics, durationS, cfg, REQUEST_TYPES);
  const text = summaryText(paper, cfg);
  const out = {
    stdout: '\n' + text,
  };
  out[sg.summaryJson || 'results/k6-summary.json'] = JSON.stringify({
    schema: 'shellgrade.k6-summary/1',
    config: cfg,
    users: users.length,
    paper,
    k6: data,
  }, null, 2);
  out[sg.summaryTxt || 'results/k6-summary.txt'] = text;
  return out;
}
