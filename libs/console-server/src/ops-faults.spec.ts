import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { faultsJson, reportFixtureIds, SLOWEST_DURING, writeRepeatedFaultFixtures, writeReportFixtures, type ReportFixtureIds } from './ops-findings.fixtures';
import { serveAppWithConsole } from './console-routes';

let root: string;
let results: string;
let ids: ReportFixtureIds;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sg-faults-'));
  results = join(root, 'results');
  ids = reportFixtureIds('20261201T0000', 't');
  writeReportFixtures(results, ids);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function entry(admin: boolean | null = true) {
  const app = express();
  serveAppWithConsole(app, { dir: join(root, 'no-build'), maxArchiveBytes: 4096, opsAccess: 'internal', resultsDir: results, ...(admin === null ? {} : { isAdmin: async () => admin }) });
  app.use((_req, res) => res.status(418).end());
  return app;
}

describe('GET /ops/faults (admins only)', () => {
  it.each([
    [false, '/ops/faults'],
    [false, '/ops/faults/ID'],
    [null, '/ops/faults'],
  ])('answers 404 problem+json to a non-admin (admin: %s) on %s', async (admin, path) => {
    const res = await request(entry(admin)).get(path.replace('ID', ids.faults));
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.stringify(res.body)).not.toMatch(/restart:postgres/);
  });

  it('lists the faults folders and the resilience matrix: rows faults, columns variants, each cell its runs', async () => {
    const res = await request(entry()).get('/ops/faults');
    expect(res.status).toBe(200);
    expect(res.body.folders).toEqual([{ id: ids.faults, variants: ['msa-1-2', 'naked-mon'], faults: ['latency:exercise', 'restart:postgres'], runs: 3, lossy: 1 }]);
    const m = res.body.matrix;
    expect(m.faults).toEqual(['latency:exercise', 'restart:postgres']);
    expect(m.variants).toEqual(['msa-1-2', 'naked-mon']);
    expect(m.cells[0][1].runs).toEqual([]);
    expect(m.cells[1][0].runs).toEqual([{ runId: ids.faultMsa, folder: ids.faults, lost: 3, efrDuring: 0.5, recovered: false, recoveryMs: null, valid: false, reasons: ['foreign CPU load: 0.63 cores'] }]);
    expect(m.cells[1][1].runs).toEqual([{ runId: ids.faultMon, folder: ids.faults, lost: 0, efrDuring: 0.25, recovered: true, recoveryMs: 2000, valid: true, reasons: [] }]);
    expect(res.body.runs[ids.faultLatency]).toEqual({ id: ids.faultLatency, present: true, variant: 'msa-1-2', report: 'report/report.html', breakdown: null, traces: [{ label: 'slowest during the fault (481 ms)', traceId: SLOWEST_DURING }] });
  });

  it('gives no architecture verdict for cells of fewer than 3 runs, and one per fault and pair of variants with 3 runs or more a cell', async () => {
    expect((await request(entry()).get('/ops/faults')).body.verdicts).toEqual([]);
    writeRepeatedFaultFixtures(results, ids);
    const res = await request(entry()).get('/ops/faults');
    expect(res.body.verdicts).toHaveLength(1);
    const v = res.body.verdicts[0];
    expect([v.fault, v.a, v.b]).toEqual(['kill-one:exercise', 'msa-1-2', 'naked-mon']);
    // EFR during: 32 % (64 of 200 failed, on average) on msa-1-2, 11 % on naked-mon.
    expect(v.efrDuring.difference.meanA).toBeCloseTo(0.32, 6);
    expect(v.efrDuring.difference.meanB).toBeCloseTo(0.11, 6);
    expect(v.efrDuring.reading).toBe('naked-mon lower');
    expect(v.recovery.reading).toBe('naked-mon higher');
    expect(v.recovery.rank).toMatchObject({ nA: 3, nB: 3, cliffsDelta: 1 });
  });

  it('counts a run named by two folders once, and reads the first slice\'s bare array', async () => {
    const copy = '20261201T000008Z-naked-mon-faults';
    mkdirSync(join(results, copy));
    writeFileSync(join(results, copy, 'faults.json'), JSON.stringify(faultsJson(ids).results.slice(0, 1)));
    const res = await request(entry()).get('/ops/faults');
    expect(res.body.folders.map((f: { id: string; runs: number }) => [f.id, f.runs])).toEqual([
      [copy, 1],
      [ids.faults, 3],
    ]);
    expect(res.body.matrix.cells[1][1].runs).toHaveLength(1);
    const one = await request(entry()).get(`/ops/faults/${copy}`);
    expect(one.status).toBe(200);
    expect(one.body.attribution).toBeNull();
    expect(one.body.results[0].runId).toBe(ids.faultMon);
  });

  it('returns one folder: every run\'s windows, recovery, audit, crashes and attribution, with its run links', async () => {
    const res = await request(entry()).get(`/ops/faults/${ids.faults}`);
    expect(res.status).toBe(200);
    expect(res.body.attribution).toEqual({ named: 1, of: 1, share: 1 });
    expect(res.body.files).toEqual(['faults.md']);
    const [mon, msa, latency] = res.body.results;
    expect(mon).toMatchObject({ fault: 'restart:postgres', during: { N: 200, OK: 150, KO: 50, EFR: 0.25, koCauses: { server_5xx: 50 } }, audit: { summary: 'balanced (accepted 40, persisted final 40)' }, crashes: [{ process: 'native server postgres', injected: true }] });
    expect(mon.crashes[0].pid).toBeUndefined();
    expect(msa.valid).toBe(false);
    expect(latency.attribution).toEqual({ hop: 'exercise', expected: ['exercise.queueing'], named: true });
    expect(Object.keys(res.body.runs).sort()).toEqual([ids.faultMon, ids.faultMsa, ids.faultLatency].sort());
  });

  it.each([
    ['..%2F..%2Fetc', 400, /is not a faults folder name/],
    ['20261201T000000Z-naked-mon-smoke', 400, /is not a faults folder name \(<UTC stamp>-<variant>-faults/],
    ['nope-faults', 400, /is not a faults folder name/],
    ['20261201T000009Z-none-faults', 404, /no faults folder "20261201T000009Z-none-faults" in the results folder/],
    ['ID/faults.md', 404, /under \/ops\/runs\/<id>\//],
  ])('refuses %s with %i problem+json and a reason, never a host path', async (name, status, detail) => {
    const res = await request(entry()).get(`/ops/faults/${name.replace('ID', ids.faults)}`);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toMatch(detail);
    expect(JSON.stringify(res.body)).not.toContain(root);
  });

  it('answers 422 when faults.json does not match, and lists the folder with the reason and no run', async () => {
    const bad = faultsJson(ids);
    (bad.results[2] as { runId: string }).runId = '../../etc';
    writeFileSync(join(results, ids.faults, 'faults.json'), JSON.stringify(bad));
    const res = await request(entry()).get(`/ops/faults/${ids.faults}`);
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(`faults folder "${ids.faults}": faults.json does not match its format: results.2.runId: not a run id`);
    const list = await request(entry()).get('/ops/faults');
    expect(list.body.folders[0]).toMatchObject({ id: ids.faults, runs: 0, error: 'faults.json does not match its format: results.2.runId: not a run id' });
    expect(list.body.matrix).toEqual({ faults: [], variants: [], cells: [] });
  });
});
