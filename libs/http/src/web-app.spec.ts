import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { serveWebApp } from './web-app';

function builtApp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  return dir;
}

/** An express app as an entry point has it: the web app, then server routes, then a 404. */
function entry(opts: { dir: string; traces?: boolean }) {
  const app = express();
  serveWebApp(app, { maxArchiveBytes: 4096, ...opts });
  app.get('/health', (_req, res) => res.json({ status: 'ok' }));
  app.get('/api/x', (_req, res) => res.json({ api: true }));
  app.use((_req, res) => res.status(404).json({ status: 404 }));
  return app;
}

describe('serveWebApp', () => {
  const dir = builtApp();

  it('serves index.html to browsers on any page path, and the hashed assets with a long cache', async () => {
    for (const path of ['/', '/statement/3', '/console/trace/abc']) {
      const res = await request(entry({ dir })).get(path).set('Accept', 'text/html,application/xhtml+xml');
      expect([path, res.status, res.text]).toEqual([path, 200, '<!doctype html><div id="root"></div>']);
    }
    const asset = await request(entry({ dir })).get('/assets/index-abc.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('leaves /api, /health and non-browser clients to the server (their 404 stays a 404)', async () => {
    const app = entry({ dir });
    expect((await request(app).get('/health').set('Accept', 'text/html')).body).toEqual({ status: 'ok' });
    expect((await request(app).get('/api/x').set('Accept', 'text/html')).body).toEqual({ api: true });
    expect((await request(app).get('/api/nothing').set('Accept', 'text/html')).status).toBe(404);
    expect((await request(app).get('/nowhere').set('Accept', 'application/json')).status).toBe(404);
    expect((await request(app).post('/nowhere').set('Accept', 'text/html')).status).toBe(404);
  });

  it('answers the archive limit at /app-config.json, and nothing at / without a build', async () => {
    const res = await request(entry({ dir: join(dir, 'missing') })).get('/app-config.json');
    expect(res.body).toEqual({ maxArchiveBytes: 4096, traces: false, standalone: false });
    expect((await request(entry({ dir: join(dir, 'missing') })).get('/').set('Accept', 'text/html')).status).toBe(404);
  });

  it('says in /app-config.json whether a trace view is served, and leaves /ops to the console beside it', async () => {
    expect((await request(entry({ dir, traces: true })).get('/app-config.json')).body).toEqual({ maxArchiveBytes: 4096, traces: true, standalone: false });
    expect((await request(entry({ dir })).get('/ops/presets').set('Accept', 'text/html')).status).toBe(404);
  });
});
