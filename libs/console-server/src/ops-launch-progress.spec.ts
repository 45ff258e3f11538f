import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LaunchWatcher } from './ops-launch-progress';

/** A k6 JSON log line carrying the script's console.log marker, as k6 --log-format json writes it. */
const k6 = (msg: object) => JSON.stringify({ level: 'info', msg: JSON.stringify(msg), source: 'console', time: '2026-11-27T00:00:00Z' }) + '\n';
const sps = (t: number, ms: number, outcome = 'ok', status = 201, error_code = 0) => k6({ sg: 'sps', trace_id: 'x', start_ms: t, duration_ms: ms, status, outcome, error_code });
const req = (t: number, ms: number, step: number, outcome = 'ok', cause: string | null = null, type = 'sps') => k6({ sg: 'req', t, ms, type, outcome, cause, step });

let root: string;
let runDir: string;
let harnessLog: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sg-launch-'));
  runDir = join(root, 'run');
  mkdirSync(runDir);
  harnessLog = join(root, 'harness.log');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it('forms the stage from the harness lines and a run from the SPS lines as k6 writes them', () => {
  writeFileSync(harnessLog, '[bench 00:00:01] run x: variant naked-mon\nnpm noise\n[bench 00:00:02] warm-up: 5 SPS');
  const w = new LaunchWatcher(runDir, harnessLog);
  expect(w.snapshot()).toMatchObject({ stage: 'run x: variant naked-mon', runs: [], verdict: null });

  // The harness's last line completes; k6 writes half of its log, the rest later (read incrementally).
  appendFileSync(harnessLog, '\n');
  writeFileSync(join(runDir, 'k6-run-1.log'), sps(1000, 100) + sps(2000, 300) + sps(3000, 50, 'ko', 503, 0));
  let s = w.snapshot();
  expect(s.stage).toBe('warm-up: 5 SPS');
  expect(s.runs).toEqual([{ run: 1, valid: null, reasons: [], steps: [{ step: 0, ok: 2, ko: 1, koCauses: { 'status 503': 1 }, p95Ms: 300, throughput: 1 }] }]);

  appendFileSync(join(runDir, 'k6-run-1.log'), sps(5000, 200) + sps(5000, 400, 'ko', 0, 1211) + '{"level":"info","msg":"not json"}\n');
  writeFileSync(join(runDir, 'run-1.json'), JSON.stringify({ valid: false, reasons: ['k6 dropped 3 iterations'] }));
  writeFileSync(join(runDir, 'aggregated.json'), JSON.stringify({ valid: false, validRuns: 0, runsAsked: 1 }));
  s = w.snapshot();
  expect(s.runs[0]).toEqual({ run: 1, valid: false, reasons: ['k6 dropped 3 iterations'], steps: [{ step: 0, ok: 3, ko: 2, koCauses: { 'status 503': 1, 'error 1211': 1 }, p95Ms: 300, throughput: 0.75 }] });
  expect(s.verdict).toEqual({ valid: false, validRuns: 0, runsAsked: 1 });
});

it('splits a suite run by step from its per-request lines (other request types left out)', () => {
  writeFileSync(join(runDir, 'k6-run-1.log'), req(0, 10, 0) + req(1000, 20, 0) + req(1000, 5, 0, 'ok', null, 'login') + req(2000, 30, 1) + req(4000, 40, 1, 'ko', 'timeout') + sps(0, 10));
  const steps = new LaunchWatcher(runDir, harnessLog).snapshot().runs[0]!.steps;
  expect(steps).toEqual([
    { step: 0, ok: 2, ko: 0, koCauses: {}, p95Ms: 20, throughput: 2 },
    { step: 1, ok: 1, ko: 1, koCauses: { timeout: 1 }, p95Ms: 30, throughput: 0.5 },
  ]);
});
