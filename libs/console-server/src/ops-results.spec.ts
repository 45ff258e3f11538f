import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { serveAppWithConsole } from './console-routes';

/** A results folder with two fabricated runs, a non-run folder and a secret beside it. */
function resultsFolder(): { root: string; results: string } {
  const root = mkdtempSync(join(tmpdir(), 'sg-results-'));
  const results = join(root, 'results');
  const older = join(results, '20261101T100000Z-naked-mon-small');
  const newer = join(results, '20261102T100000Z-msa-1-2-smoke');
  mkdirSync(join(older, 'report'), { recursive: true });
  mkdirSync(newer, { recursive: true });
  mkdirSync(join(results, 'grader-baseline'));
  writeFileSync(join(results, 'grader-baseline', 'x.md'), '# not a run');
  writeFileSync(join(older, 'meta.json'), JSON.stringify({ runId: 'x', variant: 'naked-mon', profileName: 'small', startedAt: '2026-11-01T10:01:00.000Z', endedAt: '2026-11-01T10:05:00.000Z' }));
  writeFileSync(join(older, 'aggregated.json'), JSON.stringify({ schema: 'shellgrade.bench-aggregated/2', runsAsked: 3, runs: 3, validRuns: 2, valid: true }));
  writeFileSync(join(older, 'report', 'report.html'), '<h1>report</h1>');
  writeFileSync(join(older, 'k6-dashboard-run-1.html'), '<h1>k6</h1>');
  writeFileSync(join(older, 'profiles.md'), '# profiles');
  writeFileSync(join(older, 'k6-run-1.log'), 'log');
  writeFileSync(join(older, 'run-1.json'), '{"run":1}');
  writeFileSync(join(newer, 'meta.json'), JSON.stringify({ variant: 'msa-1-2', profileName: 'smoke', startedAt: '2026-11-02T10:01:00.000Z' }));
  writeFileSync(join(root, 'secret.md'), 'secret');
  symlinkSync(join(root, 'secret.md'), join(newer, 'leak.md'));
  return { root, results };
}

function entry(resultsDir: string, opsAccess: 'internal' | 'public' = 'internal') {
  const app = express();
  const presets = [{ name: 'naked-mon', description: 'the monolith', topology: 'monolith', dispatch: 'inline', transport: 'http', gateway: 'proxy' }];
  serveAppWithConsole(app, { dir: join(resultsDir, 'no-build'), maxArchiveBytes: 4096, opsAccess, presets: () => presets, resultsDir });
  app.use((_req, res) => res.status(404).json({ status: 404 }));
  return app;
}

describe('the console relay: presets and benchmark runs', () => {
  const { results } = resultsFolder();

  it('lists the presets given by the wiring', async () => {
    const res = await request(entry(results)).get('/ops/presets');
    expect(res.status).toBe(200);
    expect(res.body.presets).toEqual([{ name: 'naked-mon', description: 'the monolith', topology: 'monolith', dispatch: 'inline', transport: 'http', gateway: 'proxy' }]);
  });

  it('lists the run folders newest first, with their facts and report files', async () => {
    const res = await request(entry(results)).get('/ops/runs');
    expect(res.status).toBe(200);
    expect(res.body.runs).toEqual([
      { id: '20261102T100000Z-msa-1-2-smoke', variant: 'msa-1-2', profile: 'smoke', startedAt: '2026-11-02T10:01:00.000Z', endedAt: null, runsAsked: null, validRuns: null, valid: null, files: ['meta.json'] },
      {
        id: '20261101T100000Z-naked-mon-small',
        variant: 'naked-mon',
        profile: 'small',
        startedAt: '2026-11-01T10:01:00.000Z',
        endedAt: '2026-11-01T10:05:00.000Z',
        runsAsked: 3,
        validRuns: 2,
        valid: true,
        files: ['aggregated.json', 'k6-dashboard-run-1.html', 'meta.json', 'profiles.md', 'report/report.html'],
      },
    ]);
  });

  it('serves a run file read-only with its content type, HTML sandboxed', async () => {
    const app = entry(results);
    const html = await request(app).get('/ops/runs/20261101T100000Z-naked-mon-small/report/report.html');
    expect([html.status, html.headers['content-type'], html.text]).toEqual([200, 'text/html; charset=utf-8', '<h1>report</h1>']);
    expect(html.headers['content-security-policy']).toContain('sandbox');
    const md = await request(app).get('/ops/runs/20261101T100000Z-naked-mon-small/profiles.md');
    expect([md.status, md.headers['content-type'], md.text]).toEqual([200, 'text/markdown; charset=utf-8', '# profiles']);
    const json = await request(app).get('/ops/runs/20261101T100000Z-naked-mon-small/run-1.json');
    expect([json.status, json.body]).toEqual([200, { run: 1 }]);
    expect((await request(app).post('/ops/runs/20261101T100000Z-naked-mon-small/profiles.md')).status).toBe(404);
  });

  it('refuses other extensions and anything outside the results folder (404)', async () => {
    const app = entry(results);
    for (const path of [
      '/ops/runs/20261101T100000Z-naked-mon-small/k6-run-1.log',
      '/ops/runs/20261101T100000Z-naked-mon-small/../../secret.md',
      '/ops/runs/20261101T100000Z-naked-mon-small/%2e%2e/%2e%2e/secret.md',
      '/ops/runs/20261101T100000Z-naked-mon-small/..%2f..%2fsecret.md',
      '/ops/runs/..%2fsecret.md',
      '/ops/runs/20261102T100000Z-msa-1-2-smoke/leak.md',
      '/ops/runs/grader-baseline/x.md',
      '/ops/runs/20261101T100000Z-naked-mon-small/missing.md',
    ]) {
      const res = await request(app).get(path);
      expect([path, res.status, res.text]).not.toContain('secret');
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  it('answers nothing to callers from outside, unless ops are public', async () => {
    const forwarded = (path: string) => request(entry(results)).get(path).set('X-Forwarded-For', '198.51.100.7');
    for (const path of ['/ops/presets', '/ops/runs', '/ops/runs/20261101T100000Z-naked-mon-small/profiles.md']) {
      expect([path, (await forwarded(path)).status]).toEqual([path, 404]);
    }
    expect((await request(entry(results, 'public')).get('/ops/runs').set('X-Forwarded-For', '198.51.100.7')).status).toBe(200);
  });

  it('lists no run when the results folder does not exist', async () => {
    expect((await request(entry(join(results, 'missing'))).get('/ops/runs')).body.runs).toEqual([]);
  });
});
