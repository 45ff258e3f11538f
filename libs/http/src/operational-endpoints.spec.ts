import { Global, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { configureHttpApp } from './bootstrap';
import { ObservabilityModule } from './observability';
import { testAppOptions } from './testing/app-options';

const CHECKS = Symbol('checks');
@Global()
@Module({ providers: [{ provide: CHECKS, useValue: [{ name: 'postgres', check: async () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432')) }] }], exports: [CHECKS] })
class ChecksModule {}

async function app(opsAccess: 'internal' | 'public'): Promise<NestExpressApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [ChecksModule, ObservabilityModule.forRoot({ role: 'monolith', replica: 0, variant: 'naked-mon' }, opsAccess, CHECKS)],
  }).compile();
  const nest = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
  configureHttpApp(nest, testAppOptions({ opsAccess }));
  return nest.init();
}

/** A request relayed by a front proxy (HAProxy, the gateway) from an outside client. */
const fromOutside = { 'X-Forwarded-For': '198.51.100.23' };

describe('operational endpoints (/health detail, /metrics, /docs)', () => {
  let nest: NestExpressApplication;
  beforeAll(async () => {
    nest = await app('internal');
  });
  afterAll(() => nest?.close());

  it('answer internal callers in full', async () => {
    await request(nest.getHttpServer()).get('/metrics').expect(200);
    await request(nest.getHttpServer()).get('/docs-json').expect(200);
    const health = await request(nest.getHttpServer()).get('/health').expect(503);
    expect(health.body.checks[0]).toMatchObject({ name: 'postgres', ok: false });
  });

  it('hide /metrics and /docs from the outside, and the health detail (no addresses, no identity)', async () => {
    for (const path of ['/metrics', '/docs', '/docs-json']) {
      const res = await request(nest.getHttpServer()).get(path).set(fromOutside).expect(404);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    const health = await request(nest.getHttpServer()).get('/health').set(fromOutside).expect(503);
    expect(health.body).toEqual({ status: 'degraded' });
  });

  it('opsAccess public opens them to everyone (development)', async () => {
    const open = await app('public');
    try {
      await request(open.getHttpServer()).get('/metrics').set(fromOutside).expect(200);
      expect((await request(open.getHttpServer()).get('/health').set(fromOutside)).body.checks).toHaveLength(1);
    } finally {
      await open.close();
    }
  });
});
