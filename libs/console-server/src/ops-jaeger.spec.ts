import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { serveAppWithConsole } from './console-routes';

function builtApp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  return dir;
}

/** An express app as an entry point has it: the web app with the console, then server routes, then a 404. */
function entry(opts: { dir: string; jaegerQueryUrl?: string }) {
  const app = express();
  serveAppWithConsole(app, { maxArchiveBytes: 4096, opsAccess: 'internal', ...opts });
  app.get('/health', (_req, res) => res.json({ status: 'ok' }));
  app.use((_req, res) => res.status(404).json({ status: 404 }));
  return app;
}

describe('the Jaeger relay', () => {
  const dir = builtApp();
  let jaeger: Server;
  let url: string;
  const seen: string[] = [];
  beforeAll(async () => {
    jaeger = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ data: [req.url] }));
    });
    await new Promise<void>((r) => jaeger.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(jaeger.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => jaeger.close(() => r())));

  it('relays the trace reads of internal callers, query included', async () => {
    const app = entry({ dir, jaegerQueryUrl: url });
    expect((await request(app).get('/ops/jaeger/api/traces/0af7651916cd43dd8448eb211c80319c')).body).toEqual({ data: ['/api/traces/0af7651916cd43dd8448eb211c80319c'] });
    expect((await request(app).get('/ops/jaeger/api/traces?service=shellgrade-monolith&limit=5')).body).toEqual({ data: ['/api/traces?service=shellgrade-monolith&limit=5'] });
    expect((await request(app).get('/app-config.json')).body).toEqual({ maxArchiveBytes: 4096, traces: true, standalone: false });
  });

  it('relays nothing else, and nothing to callers from outside', async () => {
    const app = entry({ dir, jaegerQueryUrl: url });
    const before = seen.length;
    expect((await request(app).get('/ops/jaeger/api/dependencies')).status).toBe(404);
    expect((await request(app).get('/ops/jaeger/../api/traces')).status).toBe(404);
    expect((await request(app).delete('/ops/jaeger/api/traces/abc')).status).toBe(404);
    expect((await request(app).get('/ops/jaeger/api/services').set('X-Forwarded-For', '198.51.100.7')).status).toBe(404);
    expect(seen.length).toBe(before);
  });
});
