// `bench trend`: one preset's tests over time, read as `bench compare` reads them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchSubcommand, isPlainTest, presetTrend, trendMarkdown } from '../../src/compare/trend';
import { runRecord, writeTestFolder, type RunFigures } from './run-fixtures';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sg-trend-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A test folder of `variant` under `profile`, started at `at`, its host's probe `scrypt` ms. */
function test(runId: string, variant: string, at: string, figures: RunFigures[], opts: { profile?: string; scrypt?: number } = {}): string {
  const dir = writeTestFolder(root, runId, variant, figures.map((f, i) => runRecord(i + 1, f)));
  const file = join(dir, 'aggregated.json');
  const a = JSON.parse(readFileSync(file, 'utf8'));
  a.meta.startedAt = at;
  a.meta.profileName = opts.profile ?? 'small';
  // The harness's verdict of the test, as it writes it: VALID when no run is INVALID.
  a.valid = figures.every((f) => f.valid !== false);
  if (opts.scrypt !== undefined) a.meta.machine = { ...a.meta.machine, speed: { scryptN14Ms: opts.scrypt, spawnMs: 2 } };
  writeFileSync(file, JSON.stringify(a));
  return dir;
}

describe('bench trend', () => {
  it("names plain tests of a profile as bench run and the console do, not fault or findings runs", () => {
    expect(isPlainTest('20261127T011951Z-naked-mon-small', 'naked-mon', 'small')).toBe(true);
    expect(isPlainTest('20261127T011951Z-naked-mon-small-tracing-kdf1', 'naked-mon', 'small')).toBe(true);
    expect(isPlainTest('20261127T010235Z-naked-mon-findings-1x-r1', 'naked-mon', 'small')).toBe(false);
    expect(isPlainTest('20261127T035539Z-naked-mon-zygote-fault-kill-one-monolith', 'naked-mon-zygote', 'smoke')).toBe(false);
    expect(isPlainTest('20261127T035539Z-naked-mon-zygote-smoke', 'naked-mon', 'smoke')).toBe(false);
  });

  it("gives the preset's newest tests oldest first, each figure the mean over its VALID runs", () => {
    test('20261101T000000Z-naked-mon-small', 'naked-mon', '2026-11-01T00:00:00.000Z', [{ throughput: 10 }]);
    test('20261102T000000Z-naked-mon-small', 'naked-mon', '2026-11-02T00:00:00.000Z', [{ throughput: 11, sps: { p50: 100, p95: 200, p99: 300 }, cpuS: 9 }, { throughput: 13, sps: { p50: 300, p95: 400, p99: 500 }, cpuS: 9 }, { throughput: 99, valid: false }]);
    test('20261103T000000Z-naked-mon-short', 'naked-mon', '2026-11-03T00:00:00.000Z', [{ throughput: 12, ko: 10, ok: 90 }], { profile: 'short' });
    test('20261104T000000Z-msa-1-2-small', 'msa-1-2', '2026-11-04T00:00:00.000Z', [{ throughput: 50 }]);
    test('20261105T000000Z-naked-mon-fault-kill-one-monolith', 'naked-mon', '2026-11-05T00:00:00.000Z', [{ throughput: 1 }]);
    const t = presetTrend('naked-mon', { root, last: 2 });
    expect(t.points.map((p) => p.runId)).toEqual(['20261102T000000Z-naked-mon-small', '20261103T000000Z-naked-mon-short']);
    const [second, third] = t.points;
    // The test is INVALID (a run of three is: the harness's rule), its figures the two VALID runs' means.
    expect(second).toMatchObject({ profile: 'small', runs: 3, validRuns: 2, valid: false, figuresFrom: 'valid', throughput: 12, spsP50: 200, spsP95: 300, spsP99: 400, invalidReasons: ['run 3: k6 dropped 3 iterations'] });
    // CPU per iteration: the run's variant CPU over its iterations started (the compare reader's figure).
    expect(second!.cpuSPerIteration).toBeGreaterThan(0);
    expect(third).toMatchObject({ profile: 'short', valid: true, invalidReasons: [], koShare: 0.1 });
    expect(t.leftOut).toEqual([{ runId: '20261105T000000Z-naked-mon-fault-kill-one-monolith', reason: expect.stringMatching(/not a plain test of the small profile/) }]);
    expect(t.command).toBe('npm run bench -- trend --variant naked-mon --last 2');
    expect(presetTrend('naked-mon', { root, profile: 'short' }).points.map((p) => p.runId)).toEqual(['20261103T000000Z-naked-mon-short']);
  });

  it("reads what a folder was from its manifest, whatever its name: back-to-back's tests are points, a calibration is left out", () => {
    const manifest = (dir: string, variant: string, profile: string, command: string) =>
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ schema: 'shellgrade.run-manifest/1', variant: { name: variant }, profile: { name: profile }, command }));
    const b2b = test('b2b-20261102T000000Z-new-naked-mon-kdf1', 'naked-mon', '2026-11-02T00:00:00.000Z', [{ throughput: 9 }]);
    manifest(b2b, 'naked-mon', 'small', 'npm run bench -- run --variant naked-mon --profile small --kdf-cost 1 --placement off --run-id b2b-20261102T000000Z-new-naked-mon-kdf1');
    const probe = test('20261103T000000Z-naked-mon-small', 'naked-mon', '2026-11-03T00:00:00.000Z', [{ throughput: 4 }]);
    // A name that reads as a plain test, a command that says it was not.
    manifest(probe, 'naked-mon', 'small', 'npm run bench -- calibrate --variant naked-mon --peaks 2,4');
    test('20261101T000000Z-naked-mon-small', 'naked-mon', '2026-11-01T00:00:00.000Z', [{ throughput: 7 }]);
    const t = presetTrend('naked-mon', { root });
    expect(t.points.map((p) => p.runId)).toEqual(['20261101T000000Z-naked-mon-small', 'b2b-20261102T000000Z-new-naked-mon-kdf1']);
    expect(t.points[1]).toMatchObject({ profile: 'small', throughput: 9 });
    expect(t.leftOut).toEqual([{ runId: '20261103T000000Z-naked-mon-small', reason: expect.stringMatching(/^a calibrate run/) }]);
    expect(benchSubcommand('npm run bench -- main --variant naked-mon')).toBe('main');
  });

  it('a test with no VALID run keeps its figures (from all its runs, said so) and is INVALID with its reasons; a cancelled one too', () => {
    test('20261101T000000Z-naked-mon-small', 'naked-mon', '2026-11-01T00:00:00.000Z', [{ throughput: 7, valid: false }]);
    const cancelled = test('20261102T000000Z-naked-mon-small', 'naked-mon', '2026-11-02T00:00:00.000Z', [{ throughput: 8 }]);
    writeFileSync(join(cancelled, 'cancelled.json'), JSON.stringify({ valid: false, reasons: ['cancelled from the console by an admin (::1) at 2026-11-02T00:01:00Z'] }));
    const [invalid, cancel] = presetTrend('naked-mon', { root }).points;
    expect(invalid).toMatchObject({ valid: false, figuresFrom: 'all', throughput: 7, invalidReasons: ['run 1: k6 dropped 3 iterations'] });
    expect(cancel).toMatchObject({ valid: false, figuresFrom: 'valid', throughput: 8, invalidReasons: [expect.stringMatching(/^cancelled from the console/)] });
  });

  it("flags the runs whose host's probe differs from the median probed run's by more than the tolerance", () => {
    test('20261101T000000Z-naked-mon-small', 'naked-mon', '2026-11-01T00:00:00.000Z', [{}], { scrypt: 36 });
    test('20261102T000000Z-naked-mon-small', 'naked-mon', '2026-11-02T00:00:00.000Z', [{}], { scrypt: 42 });
    test('20261103T000000Z-naked-mon-small', 'naked-mon', '2026-11-03T00:00:00.000Z', [{}], { scrypt: 40 });
    test('20261104T000000Z-naked-mon-small', 'naked-mon', '2026-11-04T00:00:00.000Z', [{}]);
    // The newest probed run on an odd host (this session's 65 ms beside three of 36 ms): it is the one flagged.
    test('20261105T000000Z-naked-mon-small', 'naked-mon', '2026-11-05T00:00:00.000Z', [{}], { scrypt: 65 });
    const t = presetTrend('naked-mon', { root });
    expect(t.reference).toEqual({ runId: '20261103T000000Z-naked-mon-small', speed: { scryptN14Ms: 40, spawnMs: 2 } });
    expect(t.speedTolerance).toBe(1.25);
    expect(t.points.map((p) => p.hostWarning === null)).toEqual([true, true, true, true, false]);
    expect(t.points[4]!.hostWarning).toMatch(/different speed \(scrypt 2\^14 40 vs 65 ms/);
    expect(trendMarkdown(t)).toMatch(/\| 65 \/ 2 \(other host speed\) \|/);
  });

  it('an empty or missing results folder is an empty trend', () => {
    expect(presetTrend('naked-mon', { root: join(root, 'none') })).toMatchObject({ points: [], leftOut: [], reference: null });
  });
});
