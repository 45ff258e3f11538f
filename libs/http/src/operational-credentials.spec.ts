/**
 * The operational surfaces (/metrics, /docs, /health detail) open to an explicit
 * credential (the installation's scrape token) or to a loopback caller that came straight to the
 * service — not to a caller's network position, and whatever the letter case of the path.
 */
import { Global, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { configureHttpApp } from './bootstrap';
import { ObservabilityModule } from './observability';
import { testAppOptions } from './testing/app-options';

const SCRAPE_TOKEN = 'test-scrape-token-0123456789abcdefghijklmnop';
const CHECKS = Symbol('checks');
@Global()
@Module({ providers: [{ provide: CHECKS, useValue: [{ name: 'postgres', check: async () => undefined }] }], exports: [CHECKS] })
class ChecksModule {}

/** The socket address the gate sees, as if the caller connected from `address` (set before any of our middleware). */
const connectedFrom = (address: string) => (req: Request, _res: Response, next: NextFunction) => {
  Object.defineProperty(req.socket, 'remoteAddress', { value: address, configurable: true });
  next();
};

async function app(remoteAddress?: string, opsHostNames?: string[]): Promise<NestExpressApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [ChecksModule, ObservabilityModule.forRoot({ role: 'monolith', replica: 0, variant: 'naked-mon' }, 'internal', CHECKS)],
  }).compile();
  const nest = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
  if (remoteAddress) nest.use(connectedFrom(remoteAddress));
  configureHttpApp(nest, testAppOptions({ scrapeToken: SCRAPE_TOKEN, ...(opsHostNames ? { opsHostNames } : {}) }));
  return nest.init();
}

const fromOutside = { 'X-Forwarded-For': '198.51.100.23' };
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('operational endpoints by credential, not by network position', () => {
  let direct: NestExpressApplication;
  let privateRange: NestExpressApplication;
  beforeAll(async () => {
    direct = await app();
    privateRange = await app('10.1.2.3');
  });
  afterAll(async () => {
    await direct?.close();
    await privateRange?.close();
  });

  it.each(['/METRICS', '/Metrics', '/DOCS-JSON', '/Docs-Yaml', '/DOCS'])('hide %s from an outside caller whatever its letter case', async (path) => {
    const res = await request(direct.getHttpServer()).get(path).set(fromOutside);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('refuse a private-range caller without credential (metrics, docs, health detail)', async () => {
    for (const path of ['/metrics', '/docs-json']) expect((await request(privateRange.getHttpServer()).get(path)).status).toBe(404);
    expect((await request(privateRange.getHttpServer()).get('/health').expect(200)).body).toEqual({ status: 'ok' });
  });

  it('open them to the scrape token from anywhere, and to nobody with a wrong one', async () => {
    for (const server of [privateRange.getHttpServer(), direct.getHttpServer()]) {
      await request(server).get('/metrics').set(fromOutside).set(bearer(SCRAPE_TOKEN)).expect(200);
      await request(server).get('/docs-json').set(fromOutside).set(bearer(SCRAPE_TOKEN)).expect(200);
      expect((await request(server).get('/health').set(fromOutside).set(bearer(SCRAPE_TOKEN))).body.checks).toHaveLength(1);
      expect((await request(server).get('/metrics').set(fromOutside).set(bearer(`${SCRAPE_TOKEN}x`))).status).toBe(404);
      expect((await request(server).get('/health').set(fromOutside).set(bearer('nope'))).body).toEqual({ status: 'ok' });
    }
  });

  it('still answer a loopback caller that came straight to the service', async () => {
    await request(direct.getHttpServer()).get('/metrics').expect(200);
    expect((await request(direct.getHttpServer()).get('/health')).body.checks).toHaveLength(1);
  });
});

describe('operational endpoints and DNS rebinding: the loopback credential needs a Host naming this machine', () => {
  let direct: NestExpressApplication;
  let named: NestExpressApplication;
  beforeAll(async () => {
    direct = await app();
    named = await app(undefined, ['shellgrade.lab']);
  });
  afterAll(async () => {
    await direct?.close();
    await named?.close();
  });

  it.each(['/metrics', '/docs', '/docs-json', '/health', '/ops/presets'])('answer a loopback caller naming evil.example with 404 problem+json on %s', async (path) => {
    const res = await request(direct.getHttpServer()).get(path).set('Host', 'evil.example:3000');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('open them under localhost, the loopback addresses and configured names; the scrape token whatever the Host', async () => {
    for (const host of ['localhost:3000', '127.0.0.1', '[::1]:3000']) await request(direct.getHttpServer()).get('/metrics').set('Host', host).expect(200);
    await request(direct.getHttpServer()).get('/metrics').set('Host', 'shellgrade.lab').expect(404);
    await request(named.getHttpServer()).get('/metrics').set('Host', 'shellgrade.lab:3000').expect(200);
    expect((await request(named.getHttpServer()).get('/health').set('Host', 'shellgrade.lab')).body.checks).toHaveLength(1);
    await request(direct.getHttpServer()).get('/metrics').set('Host', 'evil.example').set(bearer(SCRAPE_TOKEN)).expect(200);
  });
});
