/**
 * No page of ours may be framed by another site (clickjacking): every response
 * says `Content-Security-Policy: frame-ancestors 'none'` and `X-Frame-Options: DENY` — the API's,
 * and the web app's wherever it is served (monolith, gateway).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Controller, Get, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import express from 'express';
import request from 'supertest';
import { configureHttpApp } from './bootstrap';
import { serveWebApp } from './web-app';
import { testAppOptions } from './testing/app-options';

@Controller('api')
class PingController {
  @Get('ping')
  ping() {
    return { ok: true };
  }
}
@Module({ controllers: [PingController] })
class PingModule {}

function expectNoFraming(res: request.Response): void {
  expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(res.headers['x-frame-options']).toBe('DENY');
}

describe('framing by other sites', () => {
  it('every API response refuses it, errors included', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [PingModule] }).compile();
    const nest = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    configureHttpApp(nest, testAppOptions());
    await nest.init();
    try {
      expectNoFraming(await request(nest.getHttpServer()).get('/api/ping').expect(200));
      expectNoFraming(await request(nest.getHttpServer()).get('/api/nothing').expect(404));
    } finally {
      await nest.close();
    }
  });

  it('the web app refuses it wherever it is served (an entry point without configureHttpApp: the gateway)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-frame-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    const app = express();
    serveWebApp(app, { dir, maxArchiveBytes: 4096 });
    expectNoFraming(await request(app).get('/').set('Accept', 'text/html').expect(200));
    expectNoFraming(await request(app).get('/app-config.json').expect(200));
  });
});
