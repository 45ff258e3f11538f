// A recorded stress run analysed again from its request lines: today's verdict (the grading
// breaking point) appears, what needs live samples (memory) is kept, the recorded file is untouched.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reanalyseSuiteRuns } from '../src/suites/reanalyse';

const T0 = 1_800_000_000_000;
const suite = { kind: 'stress', steps: [{ rate: 1, holdS: 10 }, { rate: 2, holdS: 10 }], transitionS: 2, windowS: 5 };
const schedule = [{ index: 0, rate: 1, fromS: 0, holdFromS: 0, toS: 10 }, { index: 1, rate: 2, fromS: 10, holdFromS: 12, toS: 20 }];

/** One k6 log line carrying a script line, as k6 writes console.log with --log-format json. */
const logLine = (msg: object) => JSON.stringify({ level: 'info', msg: JSON.stringify(msg) });

function recordedRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-reanalyse-'));
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ profile: { suite } }));
  const old = {
    schema: 'shellgrade.suite-run/1', run: 1, kind: 'stress', windowS: 5, loadFromMs: T0, schedule,
    totals: { iterations: 3, requests: 4, ok: 3, ko: 1 }, k6: { OK: 3, KO: 1, iterations: 3 },
    steps: [], timeline: [], memory: { t: [0], groups: [{ name: 'sg-monolith-0', bytes: [42] }] },
    stress: { thresholds: {}, knee: null, breakingPoint: null, steps: [] },
  };
  writeFileSync(join(dir, 'suite-run-1.json'), JSON.stringify(old));
  const lines = [
    logLine({ sg: 'it', t: T0, step: 0 }),
    logLine({ sg: 'req', t: T0 + 100, ms: 10, type: 'login', outcome: 'ok', cause: null, step: 0 }),
    logLine({ sg: 'req', t: T0 + 200, ms: 90, type: 'sps', outcome: 'ok', cause: null, step: 0 }),
    logLine({ sg: 'it', t: T0 + 11_000, step: 1 }),
    logLine({ sg: 'it', t: T0 + 11_500, step: 1 }),
    logLine({ sg: 'req', t: T0 + 11_100, ms: 12, type: 'login', outcome: 'ok', cause: null, step: 1 }),
    logLine({ sg: 'req', t: T0 + 11_200, ms: 10_000, type: 'sps', outcome: 'ko', cause: 'timeout', step: 1 }),
    'a line that is not JSON',
  ];
  writeFileSync(join(dir, 'k6-run-1.log'), lines.join('\n') + '\n');
  return dir;
}

describe('bench reanalyse', () => {
  it('recomputes steps and the stress verdict from the request lines, keeps the memory series, leaves the recorded file as it was', async () => {
    const dir = recordedRun();
    const before = readFileSync(join(dir, 'suite-run-1.json'), 'utf8');
    const out = await reanalyseSuiteRuns(dir);
    const run = out.runs[0];
    expect(run.steps.map((s) => [s.iterations, s.spsOk, s.spsOkShare])).toEqual([[1, 1, 1], [2, 0, 0]]);
    expect(run.stress!.gradingBreakingPoint).toEqual({ index: 1, rate: 2 });
    expect(run.memory.groups[0].bytes).toEqual([42]);
    expect(readFileSync(join(dir, 'suite-run-1.json'), 'utf8')).toBe(before);
    expect(JSON.parse(readFileSync(join(dir, 'suite-reanalysis.json'), 'utf8')).runs).toHaveLength(1);
  });

  it('refuses a folder that is not a suite run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-reanalyse-'));
    await expect(reanalyseSuiteRuns(dir)).rejects.toThrow(/not a run folder/);
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ profile: {} }));
    await expect(reanalyseSuiteRuns(dir)).rejects.toThrow(/not a suite run/);
  });
});
