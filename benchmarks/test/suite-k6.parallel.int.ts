// k6 itself runs each smoke-sized suite profile against a stub of the platform's HTTP contract
// (no variant needed): the step schedule, the per-request and per-iteration lines and k6's own
// counters must agree, and the runner's analysis of them must add up. The same against a real
// variant, through the runner: suites.e2e.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { k6OptionsArgs, writeK6Options } from '../src/k6-options';
import { k6Path } from '../src/k6-tool';
import { loadStartMs, readPaper, readRequestLines, readSchedule } from '../src/k6-run';
import { defaultArchive, spsScript } from '../src/paths';
import { loadProfile } from '../src/profiles';
import { run } from '../src/shell';
import { analyseSuiteRun } from '../src/suites/analyse';
import { startContractStub, stopContractStub, type ContractStub } from './contract-stub';

jest.setTimeout(300_000);

const work = mkdtempSync(join(tmpdir(), 'sg-suite-k6-'));
let stub: ContractStub;
let epId = 0;

beforeAll(async () => {
  stub = await startContractStub(work, (_req, res) => res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ep_id: ++epId, status: 'graded' })));
});

afterAll(() => stopContractStub(stub));

// The four k6 runs at once (each its own files; the stub answers at once): they wait on the
// profiles' schedules, not on the CPU, so in sequence they would only add up their durations.
// `--address ''`: no k6 REST API, whose fixed port (6565) a second k6 could not bind (exit 106).
it.concurrent.each(['load-smoke', 'stress-smoke', 'spike-smoke', 'soak-smoke'])('%s: k6 runs the steps, every request and iteration has its line in one step', async (profile) => {
  const k6 = await k6Path();
  const summary = join(work, `${profile}.json`);
  const log = join(work, `${profile}.log`);
  const options = join(work, `${profile}-options.json`);
  writeK6Options(options, {
    script: 'sps', profile, baseUrl: stub.baseUrl, usersCsv: stub.usersCsv, archive: defaultArchive(), summaryJson: summary, summaryTxt: join(work, `${profile}.txt`),
    logSps: false, logRequests: true, reply: 'sync', ...(profile === 'soak-smoke' ? { peak: 2 } : {}),
  });
  const r = await run(k6, ['run', '--quiet', '--no-color', '--address', '', '--log-output', `file=${log}`, '--log-format', 'json', ...k6OptionsArgs(options), spsScript()], { allowFail: true });
  expect(r.code).toBe(0);
  const paper = readPaper(summary);
  const schedule = readSchedule(summary)!;
  const suite = loadProfile(profile).suite!;
  expect(schedule.map((s) => s.rate)).toEqual(suite.steps ? suite.steps.map((s) => s.rate) : [2]);
  const lines = await readRequestLines(log);
  const s = analyseSuiteRun({ run: 1, suite, schedule, ...lines, samples: [], loadFromMs: await loadStartMs(log), k6: { OK: paper.OK, KO: paper.KO, iterations: paper.iterations.started } });
  expect(paper.KO).toBe(0);
  expect(paper.OK).toBeGreaterThan(0);
  expect(s.totals).toEqual({ iterations: paper.iterations.started, requests: paper.OK, ok: paper.OK, ko: 0 });
  expect(s.steps.reduce((n, st) => n + st.N, 0)).toBe(paper.N);
  expect(s.steps.reduce((n, st) => n + st.ok, 0)).toBe(paper.OK);
  // Every step got users, and more of them at a higher rate (steps are seconds long: ± one user).
  for (const st of s.steps) expect(st.iterations).toBeGreaterThan(0);
  for (let i = 1; i < s.steps.length; i++) {
    const [a, b] = [s.steps[i - 1], s.steps[i]];
    if (b.rate > a.rate) expect(b.iterations / (b.toS - b.fromS)).toBeGreaterThan(a.iterations / (a.toS - a.fromS) - 1);
  }
  if (profile === 'stress-smoke') expect(s.stress!.knee).toEqual({ index: 2, rate: 4 });
  if (profile === 'spike-smoke') expect(s.spike!.preP95Ms).not.toBeNull();
});
