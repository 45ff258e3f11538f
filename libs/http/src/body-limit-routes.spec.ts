/**
 * Issue 34 item 8: a small JSON body limit (128 KiB) before authentication everywhere but the routes
 * whose JSON carries an archive (the submission; the authoring routes' base64 question
 * archives): nobody makes a service buffer and parse megabytes of JSON without logging in.
 */
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { bodyLimitFor, SMALL_JSON_LIMIT_BYTES } from './body-limit';
import { configureHttpApp } from './bootstrap';
import { testAppOptions } from './testing/app-options';

@Controller('api')
class EchoController {
  @Post(['user/login', 'exercise-production', 'exercise', 'student-statement'])
  @HttpCode(200)
  echo(@Body() body: { pad?: string }) {
    return { length: body.pad?.length ?? 0 };
  }
}
@Module({ controllers: [EchoController] })
class EchoModule {}

const MAX_ARCHIVE = 128 * 1024;
const padded = (bytes: number) => ({ pad: 'x'.repeat(bytes) });

describe('JSON body limits by route', () => {
  let nest: NestExpressApplication;
  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [EchoModule] }).compile();
    nest = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    configureHttpApp(nest, testAppOptions({ maxArchiveBytes: MAX_ARCHIVE }));
    await nest.init();
  });
  afterAll(() => nest?.close());

  it('is far below the archive body limit, yet fits the largest bulk enrolment (10,000 ids)', () => {
    expect(SMALL_JSON_LIMIT_BYTES).toBeLessThanOrEqual(128 * 1024);
    expect(bodyLimitFor(1024 * 1024)).toBeGreaterThan(50 * SMALL_JSON_LIMIT_BYTES);
    expect(Buffer.byteLength(JSON.stringify({ user_ids: Array.from({ length: 10_000 }, () => 2_147_483_647) }))).toBeLessThan(SMALL_JSON_LIMIT_BYTES);
  });

  it('refuses a JSON body over the small limit on the login (413 problem+json, before any handler)', async () => {
    const res = await request(nest.getHttpServer()).post('/api/user/login').send(padded(SMALL_JSON_LIMIT_BYTES + 1));
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    await request(nest.getHttpServer()).post('/api/user/login').send(padded(1000)).expect(200);
  });

  it.each(['/api/exercise-production', '/api/exercise', '/api/student-statement'])('keeps the archive body limit on %s', async (path) => {
    const res = await request(nest.getHttpServer()).post(path).send(padded(2 * SMALL_JSON_LIMIT_BYTES));
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(2 * SMALL_JSON_LIMIT_BYTES);
  });
});
