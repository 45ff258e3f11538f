// e2e-variants: naked-mon
// End-to-end: each suite (load, soak, stress, spike), smoke-sized (seconds), through the same
// runner as the paper's test, against naked-mon (brought up here; kept when already up). Checks
// the files, that the per-request lines add up to k6's own counters, and that each verdict is
// there and consistent with them.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReport } from '../src/report/report';
import { runTest } from '../src/run-test';
import { variantUp } from '../src/stack';
import type { SuiteRun } from '../src/suites/analyse';
import type { RunRecord } from '../src/types';

jest.setTimeout(900_000);

const work = mkdtempSync(join(tmpdir(), 'sg-suites-e2e-'));
const variant = 'naked-mon';

beforeAll(async () => {
  process.env.SG_RESULTS_DIR = join(work, 'results');
  await variantUp(variant);
});

/** One smoke-sized suite run: its run record and suite-run-1.json, after the common checks. */
async function suite(profile: string, extra: { saturation?: number } = {}): Promise<{ record: RunRecord; s: SuiteRun; runId: string }> {
  const runId = `e2e-${profile}`;
  await runTest({ variant, profile, runs: 1, pauseS: 0, runId, keepUp: true, dashboard: false, ...extra });
  const dir = join(work, 'results', runId);
  for (const f of ['k6-run-1.json', 'k6-run-1.log', 'run-1.json', 'suite-run-1.json', 'resources.json', 'aggregated.json']) expect(existsSync(join(dir, f))).toBe(true);
  const record = JSON.parse(readFileSync(join(dir, 'run-1.json'), 'utf8')) as RunRecord;
  const s = JSON.parse(readFileSync(join(dir, 'suite-run-1.json'), 'utf8')) as SuiteRun;
  // Every request and every iteration k6 counted has its line, in exactly one step.
  expect(s.totals).toEqual({ iterations: record.paper.iterations.started, requests: record.paper.OK + record.paper.KO, ok: record.paper.OK, ko: record.paper.KO });
  expect(s.k6).toEqual({ OK: record.paper.OK, KO: record.paper.KO, iterations: record.paper.iterations.started });
  expect(s.steps.reduce((n, st) => n + st.ok, 0)).toBe(record.paper.OK);
  expect(s.steps.reduce((n, st) => n + st.ko, 0)).toBe(record.paper.KO);
  expect(s.steps.reduce((n, st) => n + st.N, 0)).toBe(record.paper.N);
  expect(s.schedule.length).toBe(s.steps.length);
  expect(s.timeline.length).toBeGreaterThan(0);
  expect(s.memory.groups.length).toBeGreaterThan(0);
  expect(record.paper.OK).toBeGreaterThan(0);
  return { record, s, runId };
}

it('load (load-smoke): one row per step, rates as scheduled', async () => {
  const { s } = await suite('load-smoke');
  expect(s.kind).toBe('load');
  expect(s.steps.map((st) => st.rate)).toEqual([1, 2]);
  expect(s.steps.every((st) => st.iterations > 0)).toBe(true);
});

it('stress (stress-smoke): knee and breaking point are steps of the run, consistent with the per-step SLO marks', async () => {
  const { s } = await suite('stress-smoke');
  const v = s.stress!;
  expect(v.steps).toHaveLength(3);
  const firstMiss = v.steps.findIndex((m) => !m.meetsSlo);
  expect(v.knee === null ? -1 : v.knee.index).toBe((firstMiss === -1 ? 3 : firstMiss) - 1);
  const firstBroken = v.steps.findIndex((m) => m.broken);
  expect(v.breakingPoint === null ? -1 : v.breakingPoint.index).toBe(firstBroken);
  if (v.knee) expect(v.knee.rate).toBe(s.steps[v.knee.index].rate);
});

it('spike (spike-smoke): a pre-spike p95 and either a recovery time or "never", within the run', async () => {
  const { s } = await suite('spike-smoke');
  const v = s.spike!;
  expect(v).toMatchObject({ baselineRate: 1, burstRate: 5, burstEndS: s.schedule[1].toS });
  expect(v.preP95Ms).not.toBeNull();
  expect(v.recovered).toBe(v.recoveryS !== null);
  if (v.recoveryS !== null) expect(v.recoveryS).toBeLessThan(s.schedule[2].toS - v.burstEndS);
});

it('soak (soak-smoke at 70 % of --saturation 2): every rule judged, the verdict follows its rules, and the report shows the suites', async () => {
  const { s, record, runId } = await suite('soak-smoke', { saturation: 2 });
  expect(s.steps.map((st) => st.rate)).toEqual([1]);
  const v = s.soak!;
  expect(v.memory.length).toBeGreaterThan(0);
  expect(v.ko.count).toBe(record.paper.KO);
  expect(v.pass).toBe(v.failures.length === 0);
  expect(v.pass).toBe(v.memory.every((m) => m.pass) && v.p95.pass && v.ko.pass);
  const report = buildReport(['e2e-load-smoke', 'e2e-stress-smoke', 'e2e-spike-smoke', runId], join(work, 'report'));
  expect(report.markdown).toContain('Suites: verdicts');
  expect(report.markdown).toContain(`Suite soak — ${variant} [soak-smoke], run 1: per step`);
  expect(readFileSync(report.htmlFile, 'utf8')).toContain('suite-mem-3');
});
