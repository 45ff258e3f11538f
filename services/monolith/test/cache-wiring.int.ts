/**
 * The monolith's composition root with each cache: the Nest graph resolves (SPS use case,
 * grading worker, CRUD controllers) and SUBMISSION_CONTEXT / SUBMISSION_CONTEXT_INVALIDATION
 * are the ones spec.cache asks for. Real Redis; PostgreSQL is configured but not queried.
 */
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ExercisesController, StatementsController } from '@shellgrade/api';
import { CACHE_REDIS, CachedSubmissionContextReader, type CacheRedisConnection, RedisSubmissionContextCache } from '@shellgrade/cache';
import { GradingWorker, noSubmissionContextCache, SUBMISSION_CONTEXT, SUBMISSION_CONTEXT_INVALIDATION, SubmissionService } from '@shellgrade/domain';
import { PgSubmissionContextReader } from '@shellgrade/persistence';
import { loadConnections, loadVariant, processConfigOf, type VariantSpec } from '@shellgrade/variant';
import { MonolithModule } from '../src/app.module';

const redisUrl = () => {
  const url = new URL(loadConnections({ REDIS_URL: process.env.REDIS_URL }).REDIS_URL);
  url.pathname = '/12';
  return url.toString();
};

/** The naked-mon monolith with `cache`, as its process would be configured. */
async function compile(cache: VariantSpec['cache'], env: Record<string, string> = {}): Promise<INestApplicationContext> {
  const spec = { ...loadVariant('naked-mon'), cache };
  const connections = loadConnections({ DATABASE_URL: process.env.DATABASE_URL, ...env });
  const cfg = { ...processConfigOf(spec, 'monolith', 0, { host: '127.0.0.1', port: 3000 }), connections };
  const moduleRef = await Test.createTestingModule({ imports: [MonolithModule.forRoot(cfg)] }).compile();
  return moduleRef.init();
}

describe('monolith wiring per cache (real Redis)', () => {
  it('cache none: the SPS read path is PostgreSQL, invalidation a no-op', async () => {
    const app = await compile('none');
    try {
      expect(app.get(SubmissionService)).toBeDefined();
      expect(app.get(GradingWorker)).toBeDefined();
      expect(app.get(ExercisesController)).toBeDefined();
      expect(app.get(StatementsController)).toBeDefined();
      expect(app.get(SUBMISSION_CONTEXT)).toBeInstanceOf(PgSubmissionContextReader);
      expect(app.get(SUBMISSION_CONTEXT_INVALIDATION)).toBe(noSubmissionContextCache);
    } finally {
      await app.close();
    }
  });

  it('cache redis: the SPS read path is the cached reader, invalidation goes to Redis, shutdown closes it', async () => {
    const app = await compile('redis', { REDIS_URL: redisUrl() });
    const connection = app.get<CacheRedisConnection>(CACHE_REDIS);
    try {
      expect(app.get(SubmissionService)).toBeDefined();
      expect(app.get(GradingWorker)).toBeDefined();
      expect(app.get(SUBMISSION_CONTEXT)).toBeInstanceOf(CachedSubmissionContextReader);
      expect(app.get(SUBMISSION_CONTEXT_INVALIDATION)).toBeInstanceOf(RedisSubmissionContextCache);
      expect(connection.client.status).toBe('ready');
    } finally {
      await app.close();
    }
    expect(connection.client.status).toBe('end');
  });
});
