// The runner reads the suites' request lines back from k6's JSON log, and the step schedule
// from k6's summary (k6/lib/scenario-r.js and config.js write them).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRequestLines, readSchedule } from '../src/k6-run';

const dir = mkdtempSync(join(tmpdir(), 'sg-suite-lines-'));
const logLine = (msg: unknown): string => JSON.stringify({ level: 'info', msg: typeof msg === 'string' ? msg : JSON.stringify(msg), source: 'console', time: '2026-11-24T23:59:19Z' });

it('keeps the req and it lines, ignores SPS samples, other markers and warnings quoting them', async () => {
  const log = join(dir, 'k6.log');
  writeFileSync(log, [
    logLine({ sg: 'start', start_ms: 1000 }),
    logLine({ sg: 'it', t: 1001, step: 0 }),
    logLine({ sg: 'req', t: 1002, ms: 8, type: 'opt_login', outcome: 'ok', cause: null, step: 0 }),
    logLine({ sg: 'req', t: 1010, ms: 10000, type: 'login', outcome: 'ko', cause: 'timeout', step: 0 }),
    logLine({ sg: 'sps', trace_id: 'ab', start_ms: 1020 }),
    logLine('not json {"sg":"req"}'),
    JSON.stringify({ level: 'warning', msg: 'k6 quoted \\"sg\\":\\"req\\" in a warning' }),
    '',
  ].join('\n'));
  const { requests, iterations } = await readRequestLines(log);
  expect(iterations).toEqual([{ sg: 'it', t: 1001, step: 0 }]);
  expect(requests.map((r) => [r.type, r.outcome, r.cause, r.step])).toEqual([['opt_login', 'ok', null, 0], ['login', 'ko', 'timeout', 0]]);
});

it('reads the schedule k6 ran from its summary; none for a plain profile or a missing file', () => {
  const withSchedule = join(dir, 'suite.json');
  const schedule = [{ index: 0, rate: 1, fromS: 0, holdFromS: 0, toS: 5 }];
  writeFileSync(withSchedule, JSON.stringify({ config: { schedule }, paper: {} }));
  const plain = join(dir, 'plain.json');
  writeFileSync(plain, JSON.stringify({ config: { peak: 2 }, paper: {} }));
  expect(readSchedule(withSchedule)).toEqual(schedule);
  expect(readSchedule(plain)).toBeNull();
  expect(readSchedule(join(dir, 'missing.json'))).toBeNull();
});
