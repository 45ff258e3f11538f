/**
 * Unsafe methods from a browser must come from the service's own origin (or a
 * listed CORS origin); a cross-site form login is refused. Non-browser clients (k6, curl,
 * server-to-server: no Origin, no Sec-Fetch-Site) keep working, and no form body is parsed.
 */
import { Controller, HttpCode, Module, Post, Put } from '@nestjs/common';
import { JsonBody } from './json-bodies';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { configureHttpApp } from './bootstrap';
import { testAppOptions } from './testing/app-options';

@Controller('api')
class LoginController {
  @Post('user/login')
  @HttpCode(200)
  login(@JsonBody() body: unknown) {
    return { received: body ?? null };
  }

  @Put('exercise/:id')
  update() {
    return { ok: true };
  }
}
@Module({ controllers: [LoginController] })
class LoginModule {}

async function app(corsOrigins = ''): Promise<NestExpressApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [LoginModule] }).compile();
  const nest = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
  configureHttpApp(nest, testAppOptions({ corsOrigins }));
  return nest.init();
}

const EVIL = 'https://evil.example';
const form = 'email=attacker%40evil.example&password=attacker-password';

describe('cross-site request forgery', () => {
  let nest: NestExpressApplication;
  let listed: NestExpressApplication;
  beforeAll(async () => {
    nest = await app();
    listed = await app('https://spa.example');
  });
  afterAll(async () => {
    await nest?.close();
    await listed?.close();
  });

  it('refuses a cross-site form login (urlencoded, Origin of another site) with 403 problem+json', async () => {
    const res = await request(nest.getHttpServer()).post('/api/user/login').set('Origin', EVIL).type('form').send(form);
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.detail).toMatch(/cross-site/);
  });

  it('refuses an unsafe request a browser marks cross-site or same-site, whatever its body', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await request(nest.getHttpServer()).post('/api/user/login').set('Sec-Fetch-Site', site).set('Origin', EVIL).send({ email: 'a@b', password: 'x' });
      expect([site, res.status]).toEqual([site, 403]);
    }
    await request(nest.getHttpServer()).put('/api/exercise/1').set('Sec-Fetch-Site', 'cross-site').set('Origin', EVIL).send({}).expect(403);
  });

  it('accepts the web app: same-origin Origin, Sec-Fetch-Site same-origin or none', async () => {
    const server = nest.getHttpServer();
    const body = { email: 'a@b', password: 'x' };
    await request(server).post('/api/user/login').set('Host', 'shellgrade.example:8080').set('Origin', 'http://shellgrade.example:8080').send(body).expect(200);
    await request(server).post('/api/user/login').set('Sec-Fetch-Site', 'same-origin').set('Origin', 'http://127.0.0.1:3000').send(body).expect(200);
    await request(server).post('/api/user/login').set('Sec-Fetch-Site', 'none').send(body).expect(200);
    // behind HAProxy or the gateway, the browser's host is the forwarded one
    await request(server).post('/api/user/login').set('Host', '127.0.0.1:3200').set('X-Forwarded-Host', 'grader.example').set('Origin', 'https://grader.example').send(body).expect(200);
  });

  it('accepts a listed CORS origin (a SPA served elsewhere), cross-site or not', async () => {
    await request(listed.getHttpServer()).post('/api/user/login').set('Sec-Fetch-Site', 'cross-site').set('Origin', 'https://spa.example').send({}).expect(200);
    await request(listed.getHttpServer()).post('/api/user/login').set('Sec-Fetch-Site', 'cross-site').set('Origin', EVIL).send({}).expect(403);
  });

  it('accepts non-browser clients: no Origin and no Sec-Fetch-Site (k6, curl, server-to-server)', async () => {
    const res = await request(nest.getHttpServer()).post('/api/user/login').send({ email: 'a@b', password: 'x' }).expect(200);
    expect(res.body.received).toEqual({ email: 'a@b', password: 'x' });
    // The paper's load test sends the original SPA's Origin with JSON: no browser page sends that cross-site without a preflight, which CORS refuses.
    await request(nest.getHttpServer()).post('/api/user/login').set('Origin', 'http://localhost:4200').send({ email: 'a@b', password: 'x' }).expect(200);
  });

  it('parses no form body: a urlencoded body is refused with 415 problem+json saying what to send', async () => {
    const res = await request(nest.getHttpServer()).post('/api/user/login').type('form').send(form);
    expect(res.status).toBe(415);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.detail).toMatch(/JSON/);
  });
});
