/**
 * JSON bodies by route and by caller, through configureHttpApp: nothing larger than a login's
 * 64 KiB is parsed before a guard has authenticated the request, and the archive routes' ~15 MB
 * only after it (json-bodies.ts). The guard here is a stand-in that authenticates a bearer token
 * "student" as the AuthGuard does (setting req.user); the real AuthGuard in front of the real
 * submission route is libs/api's json-body-auth int test.
 */
import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  HttpCode,
  Injectable,
  Module,
  Post,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { JsonBody } from './json-bodies';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { bodyLimitFor, PRE_AUTH_JSON_LIMIT_BYTES, SMALL_JSON_LIMIT_BYTES } from './body-limit';
import { configureHttpApp } from './bootstrap';
import { testAppOptions } from './testing/app-options';
import { parsedCount, spaSubmission, watchJsonParse } from './testing/json-parse-watch';

@Injectable()
class BearerStudentGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request & { user?: unknown }>();
    if (req.headers.authorization !== 'Bearer student') throw new UnauthorizedException('authentication required');
    req.user = { id: 1, role: 'student' };
    return true;
  }
}

const echo = (body: { pad?: string } | undefined) => ({ length: body?.pad?.length ?? 0 });

@Controller('api')
class PublicController {
  @Post('user/login')
  @HttpCode(200)
  login(@JsonBody() body: { pad?: string }) {
    return echo(body);
  }
}

@Controller('api')
@UseGuards(BearerStudentGuard)
class GuardedController {
  @Post(['exercise-production', 'exercise', 'student-statement', 'business-session/:id/enrolments'])
  @HttpCode(200)
  submit(@JsonBody() body: { pad?: string }) {
    return echo(body);
  }
}
@Module({ controllers: [PublicController, GuardedController] })
class EchoModule {}

/** As the services: a 1 MiB archive makes the archive routes' JSON limit ~14.7 MB. */
const MAX_ARCHIVE = 1024 * 1024;
const padded = (bytes: number) => ({ pad: 'x'.repeat(bytes) });
/** The SPA's JSON submission of an archive of n bytes. */
const spaBody = (n: number) => spaSubmission(2, 1, new Uint8Array(n).fill(255));

describe('JSON bodies: small before authentication, the archive limit after it', () => {
  let nest: NestExpressApplication;
  /** The strings JSON.parse was given, from the first byte of the request on. */
  const parsed = watchJsonParse();
  const largestParsed = parsed.largest;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [EchoModule] }).compile();
    nest = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    configureHttpApp(nest, testAppOptions({ maxArchiveBytes: MAX_ARCHIVE }));
    // Like the console's /ops handlers: plain Express, after configureHttpApp, before Nest's routes.
    nest.use('/ops/echo', (req: Request, res: Response, next: NextFunction) => (req.method === 'POST' ? res.json(echo(req.body as { pad?: string })) : next()));
    await nest.init();
  });
  afterAll(() => nest?.close());

  it('bounds by what a login needs before authentication, and fits the largest bulk enrolment after it', () => {
    expect(PRE_AUTH_JSON_LIMIT_BYTES).toBeLessThanOrEqual(64 * 1024);
    expect(bodyLimitFor(MAX_ARCHIVE)).toBeGreaterThan(100 * PRE_AUTH_JSON_LIMIT_BYTES);
    const bulkEnrolment = Buffer.byteLength(JSON.stringify({ user_ids: Array.from({ length: 10_000 }, () => 2_147_483_647) }));
    expect(bulkEnrolment).toBeGreaterThan(PRE_AUTH_JSON_LIMIT_BYTES);
    expect(bulkEnrolment).toBeLessThan(SMALL_JSON_LIMIT_BYTES);
  });

  it('never parses a 10 MB submission from a caller who is not logged in: 401 problem+json, the body unread', async () => {
    const body = spaBody(800_000);
    expect(Buffer.byteLength(body)).toBeGreaterThan(10_000_000);
    expect(Buffer.byteLength(body)).toBeLessThan(bodyLimitFor(MAX_ARCHIVE));
    const before = await parsedCount('anonymous');

    for (const authorization of [undefined, 'Bearer forged']) {
      const req = request(nest.getHttpServer()).post('/api/exercise-production').set('Content-Type', 'application/json');
      const res = await (authorization ? req.set('Authorization', authorization) : req).send(body);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    expect(largestParsed()).toBeLessThan(PRE_AUTH_JSON_LIMIT_BYTES);
    expect(await parsedCount('anonymous')).toBe(before);
  });

  it('parses the SPA submission of a logged-in student after the guard', async () => {
    const before = await parsedCount('authenticated');
    const body = spaBody(200_000);
    const res = await request(nest.getHttpServer()).post('/api/exercise-production').set('Authorization', 'Bearer student').set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(200);
    expect(largestParsed()).toBe(body.length);
    expect(await parsedCount('authenticated')).toBe(before + 1);
  });

  it.each(['/api/exercise-production', '/api/exercise', '/api/student-statement'])('keeps the archive body limit on %s for a logged-in caller', async (path) => {
    const res = await request(nest.getHttpServer()).post(path).set('Authorization', 'Bearer student').send(padded(2 * SMALL_JSON_LIMIT_BYTES));
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(2 * SMALL_JSON_LIMIT_BYTES);
  });

  it('refuses a logged-in body over the archive limit with 413 saying how large an archive may be', async () => {
    const res = await request(nest.getHttpServer())
      .post('/api/exercise-production')
      .set('Authorization', 'Bearer student')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(padded(bodyLimitFor(MAX_ARCHIVE))));
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.detail).toMatch(/archive of 1 MiB .*make the archive smaller/);
    expect(largestParsed()).toBeLessThan(PRE_AUTH_JSON_LIMIT_BYTES);
  });

  it('gives a logged-in caller 128 KiB on the other routes (a bulk enrolment), and no more', async () => {
    const ok = await request(nest.getHttpServer()).post('/api/business-session/1/enrolments').set('Authorization', 'Bearer student').send(padded(100 * 1024));
    expect(ok.status).toBe(200);
    const res = await request(nest.getHttpServer()).post('/api/business-session/1/enrolments').set('Authorization', 'Bearer student').send(padded(SMALL_JSON_LIMIT_BYTES + 1));
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/at most 128 KiB/);
  });

  it('refuses a login body over 64 KiB (413 problem+json, before any handler) and parses a small one', async () => {
    const res = await request(nest.getHttpServer()).post('/api/user/login').send(padded(PRE_AUTH_JSON_LIMIT_BYTES + 1));
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.detail).toMatch(/before logging in, a JSON body may be at most 64 KiB/);
    await request(nest.getHttpServer()).post('/api/user/login').send(padded(1000)).expect(200, { length: 1000 });
  });

  it('parses the JSON of non-API paths (the console) up front, bounded as before a login', async () => {
    await request(nest.getHttpServer()).post('/ops/echo').send(padded(1000)).expect(200, { length: 1000 });
    const res = await request(nest.getHttpServer()).post('/ops/echo').send(padded(PRE_AUTH_JSON_LIMIT_BYTES + 1));
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });
});
