import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { PidLock } from '@shellgrade/pid-lock';
import { serveAppWithConsole } from './console-routes';

/** A repository-like root: k6/profiles.json, a results folder with one finished run; the harness is never started here. */
function root(): { dir: string; results: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sg-console-'));
  mkdirSync(join(dir, 'k6'));
  writeFileSync(join(dir, 'k6', 'profiles.json'), JSON.stringify({ smoke: { peak: 2 }, 'sweep-smoke': { sweep: {} } }));
  const results = join(dir, 'results');
  mkdirSync(join(results, '20261101T100000Z-naked-mon-smoke'), { recursive: true });
  writeFileSync(join(results, '20261101T100000Z-naked-mon-smoke', 'aggregated.json'), '{}');
  return { dir, results };
}

function entry(dir: string, results: string, admin: boolean, ownVariant?: string) {
  const app = express();
  app.use(express.json());
  serveAppWithConsole(app, {
    dir: join(dir, 'no-build'),
    maxArchiveBytes: 4096,
    opsAccess: 'internal',
    presets: () => [{ name: 'naked-mon', description: '' }],
    resultsDir: results,
    isAdmin: async () => admin,
    ownVariant,
    bench: { node: process.execPath, script: join(dir, 'no-cli.js'), cwd: dir, resultsDir: results },
  });
  return app;
}

let dir: string;
let results: string;
beforeEach(() => ({ dir, results } = root()));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the console's actions", () => {
  it.each([
    ['GET', '/ops/compare?runs=a,b'],
    ['GET', '/ops/launches'],
    ['POST', '/ops/launches'],
    ['GET', '/ops/launches/20261101T100000Z-naked-mon-smoke/events'],
    ['POST', '/ops/launches/20261101T100000Z-naked-mon-smoke/cancel'],
  ])('answer %s %s with 404 problem+json to anyone but an admin (a loopback caller included)', async (method, path) => {
    const res = await request(entry(dir, results, false))[method === 'GET' ? 'get' : 'post'](path);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it.each([
    ['runs=20261101T100000Z-naked-mon-smoke', 400, /compare 2 to 5 runs/],
    ['runs=a,b,c,d,e,f', 400, /compare 2 to 5 runs .*; got 6$/],
    ['runs=20261101T100000Z-naked-mon-smoke,20261101T100000Z-naked-mon-smoke', 400, /named twice/],
    ['runs=20261101T100000Z-naked-mon-smoke,..%2Fsecret', 400, /is not a run id/],
    ['runs=20261101T100000Z-naked-mon-smoke,20261102T100000Z-none', 404, /no finished run "20261102T100000Z-none"/],
  ])('refuse a comparison of %s with %i', async (query, status, detail) => {
    const res = await request(entry(dir, results, true)).get(`/ops/compare?${query}`);
    expect(res.status).toBe(status);
    expect(res.body.detail).toMatch(detail);
  });

  it("list the run profiles (not the sweeps), the plans with the refusals of a console served by a variant, and no launch yet", async () => {
    const res = await request(entry(dir, results, true, 'naked-mon')).get('/ops/launches');
    expect(res.body).toMatchObject({ launches: [], profiles: ['smoke'], ownVariant: 'naked-mon', busy: null });
    expect(res.body.plans.map((p: { plan: string; refused: string | null }) => [p.plan, p.refused !== null])).toEqual([
      ['run', false],
      ['suite', false],
      ['matrix', true],
      ['findings', true],
      ['faults', true],
    ]);
  });

  it('refuse none of the plans where no variant serves the console (the standalone console)', async () => {
    const res = await request(entry(dir, results, true)).get('/ops/launches');
    expect(res.body.ownVariant).toBeNull();
    expect(res.body.plans.filter((p: { refused: string | null }) => p.refused !== null)).toEqual([]);
  });

  it.each([
    [{ preset: 'nope', profile: 'smoke' }, /no preset "nope"/],
    [{ preset: 'naked-mon', profile: 'sweep-smoke' }, /no run profile "sweep-smoke"/],
    [{ preset: 'naked-mon', profile: 'smoke', plan: 'matrix' }, /plan/],
    [{ preset: 'naked-mon; rm -rf /', profile: 'smoke' }, /preset/],
  ])('refuse the launch %j with 400', async (body, detail) => {
    const res = await request(entry(dir, results, true)).post('/ops/launches').send(body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(detail);
  });

  it('refuse a launch politely with 409 while another holds the machine', async () => {
    const lock = new PidLock('launch', join(dir, 'run', 'console'));
    expect(lock.tryAcquire('20261127T000000Z-naked-mon-smoke')).toBeNull();
    const res = await request(entry(dir, results, true)).post('/ops/launches').send({ plan: 'run', preset: 'naked-mon', profile: 'smoke' });
    expect(res.status).toBe(409);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ running: '20261127T000000Z-naked-mon-smoke', detail: expect.stringMatching(/one run at a time/) });
  });

  it('list a run cancelled from the console as INVALID whatever its aggregate says', async () => {
    const run = join(results, '20261101T100000Z-naked-mon-smoke');
    writeFileSync(join(run, 'aggregated.json'), JSON.stringify({ valid: true, validRuns: 1, runsAsked: 1 }));
    writeFileSync(join(run, 'cancelled.json'), JSON.stringify({ valid: false, reasons: ['cancelled from the console by an admin'] }));
    const res = await request(entry(dir, results, true)).get('/ops/runs');
    expect(res.body.runs).toMatchObject([{ id: '20261101T100000Z-naked-mon-smoke', valid: false, files: ['aggregated.json', 'cancelled.json'] }]);
  });

  it('take over the lock of a harness that died', () => {
    const lock = new PidLock('launch', join(dir, 'run', 'console'));
    expect(lock.tryAcquire('a')).toBeNull();
    lock.handOver(2 ** 22 + 12345); // above pid_max's default: no such process
    expect(lock.holder()).toBeNull();
    expect(lock.tryAcquire('b')).toBeNull();
    expect(lock.holder()).toMatchObject({ pid: process.pid, what: 'b' });
  });
});
