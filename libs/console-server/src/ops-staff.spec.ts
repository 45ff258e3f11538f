/**
 * The console's /ops surfaces open to a staff account (checked by the auth
 * adapter the wiring hands in) or a loopback caller straight to the service — a private-range
 * caller is no longer trusted for its address.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { serveAppWithConsole } from './console-routes';

const presets = [{ name: 'naked-mon', description: 'the monolith' }];

/** An entry point whose callers connect from `address`; a request is staff when it says `Cookie: staff`. */
function entry(address: string, withStaffCheck = true) {
  const app = express();
  app.use((req: Request, _res: Response, next: NextFunction) => {
    Object.defineProperty(req.socket, 'remoteAddress', { value: address, configurable: true });
    next();
  });
  const dir = mkdtempSync(join(tmpdir(), 'sg-ops-staff-'));
  serveAppWithConsole(app, {
    dir,
    maxArchiveBytes: 4096,
    opsAccess: 'internal',
    presets: () => presets,
    resultsDir: dir,
    jaegerQueryUrl: 'http://127.0.0.1:9',
    ...(withStaffCheck ? { isStaff: async (req: Request) => req.headers.cookie === 'staff' } : {}),
  });
  app.use((_req, res) => res.status(404).json({ status: 404 }));
  return app;
}

describe('the console (/ops) by staff role, not by network position', () => {
  it('refuses a private-range caller without credential', async () => {
    for (const path of ['/ops/presets', '/ops/runs', '/ops/jaeger/api/services']) {
      const res = await request(entry('192.168.1.20')).get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    }
  });

  it('opens it to a staff account from anywhere', async () => {
    const res = await request(entry('203.0.113.9')).get('/ops/presets').set('Cookie', 'staff').expect(200);
    expect(res.body.presets).toEqual(presets);
    await request(entry('10.0.0.3')).get('/ops/runs').set('Cookie', 'staff').set('X-Forwarded-For', '203.0.113.9').expect(200);
  });

  it('refuses a non-staff account, and everyone when no staff check is wired', async () => {
    await request(entry('203.0.113.9')).get('/ops/presets').set('Cookie', 'student').expect(404);
    await request(entry('203.0.113.9', false)).get('/ops/presets').set('Cookie', 'staff').expect(404);
  });

  it('still answers a loopback caller straight to the service', async () => {
    await request(entry('127.0.0.1', false)).get('/ops/presets').expect(200);
  });
});
