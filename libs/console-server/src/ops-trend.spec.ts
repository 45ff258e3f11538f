import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import type { Trend } from '@shellgrade/console-contract';
import { parseTrend, trendArgs } from './ops-trend';
import { serveAppWithConsole } from './console-routes';

const metric = (m: string, unit: string) => ({ metric: m, label: m, unit, better: 'lower' as const });
const TREND: Trend = {
  preset: 'naked-mon',
  profile: null,
  last: 10,
  speedTolerance: 1.25,
  reference: { runId: '20261102T000000Z-naked-mon-small', speed: { scryptN14Ms: 40, spawnMs: 2 } },
  metrics: { throughput: { ...metric('throughput', '/s'), better: 'higher' }, spsP50: metric('p50', 'ms'), spsP95: metric('p95', 'ms'), spsP99: metric('p99', 'ms'), koShare: metric('koShare', ''), cpuSPerIteration: metric('cpuSPerIteration', 's') },
  points: [
    {
      runId: '20261102T000000Z-naked-mon-small',
      startedAt: '2026-11-02T00:00:00.000Z',
      profile: 'small',
      speed: { scryptN14Ms: 40, spawnMs: 2 },
      runs: 1,
      validRuns: 1,
      valid: true,
      invalidReasons: [],
      figuresFrom: 'valid',
      throughput: 90,
      spsP50: 900,
      spsP95: 1200,
      spsP99: 1500,
      koShare: 0,
      cpuSPerIteration: 0.2,
      hostWarning: null,
    },
  ],
  leftOut: [],
  command: 'npm run bench -- trend --variant naked-mon',
};

/** A stand-in for the harness's CLI: prints what it is given, and its arguments to a file. */
function fakeCli(dir: string, stdout: string): string {
  const script = join(dir, 'cli.js');
  writeFileSync(script, `require('fs').writeFileSync(${JSON.stringify(join(dir, 'args.json'))}, JSON.stringify(process.argv.slice(2))); process.stdout.write(${JSON.stringify(stdout)});`);
  return script;
}

function entry(dir: string, script: string, admin: boolean, opsAccess: 'internal' | 'public' = 'internal') {
  const app = express();
  serveAppWithConsole(app, {
    dir: join(dir, 'no-build'),
    maxArchiveBytes: 4096,
    opsAccess,
    resultsDir: join(dir, 'results'),
    isAdmin: async () => admin,
    bench: { node: process.execPath, script, cwd: dir, resultsDir: join(dir, 'results') },
  });
  return app;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sg-trend-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('GET /ops/trend', () => {
  it('answers 404 problem+json to anyone but an admin, and never runs the harness for them', async () => {
    const res = await request(entry(dir, fakeCli(dir, JSON.stringify(TREND)), false)).get('/ops/trend?preset=naked-mon');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(existsSync(join(dir, 'args.json'))).toBe(false);
  });

  it("serves the harness's trend, asked with the query's preset, count and profile", async () => {
    const res = await request(entry(dir, fakeCli(dir, JSON.stringify(TREND)), true)).get('/ops/trend?preset=naked-mon&last=3&profile=small');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(TREND);
    expect(JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8'))).toEqual(['trend', '--variant', 'naked-mon', '--json', '--last', '3', '--profile', 'small']);
  });

  it.each([
    ['', /name one preset/],
    ['preset=Naked', /name one preset/],
    ['preset=naked-mon%3B%20rm%20-rf%20%2F', /name one preset/],
    ['preset=--json', /name one preset/],
    ['preset=naked-mon&last=0', /last=<n> is a whole number of runs from 1 to 50 .*got "0"/],
    ['preset=naked-mon&last=51', /from 1 to 50/],
    ['preset=naked-mon&last=2.5', /from 1 to 50/],
    ['preset=naked-mon&profile=..%2Fx', /profile=<name>/],
  ])('refuses ?%s with 400 and the reason', async (query, detail) => {
    const res = await request(entry(dir, fakeCli(dir, JSON.stringify(TREND)), true)).get(`/ops/trend?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toMatch(detail);
  });

  it("is a 500 that says where when the harness's answer drifted from the contract", async () => {
    const drifted = { ...TREND, points: [{ ...TREND.points[0], spsP95: '1200' }] };
    const res = await request(entry(dir, fakeCli(dir, JSON.stringify(drifted)), true)).get('/ops/trend?preset=naked-mon');
    expect(res.status).toBe(500);
    expect(res.body.detail).toBe("bench trend's answer does not match the console's contract: points.0.spsP95: Invalid input: expected number, received string");
  });

  it('reads the query and the answer without a server', () => {
    expect(trendArgs({ preset: 'msa-1-2' })).toEqual({ args: ['trend', '--variant', 'msa-1-2', '--json'] });
    expect(parseTrend('not json')).toEqual({ error: 'bench trend did not answer JSON' });
    expect(parseTrend(JSON.stringify({ ...TREND, leftOut: undefined }))).toEqual({ error: expect.stringMatching(/leftOut/) });
  });
});
