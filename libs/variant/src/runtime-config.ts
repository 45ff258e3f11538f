/**
 * Runtime configuration of one service process, read from the environment.
 * The launcher derives these variables from a variant spec (infra/variants/*.yaml);
 * a developer running a service by hand gets the defaults below (naked-mon on loopback).
 */
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

export const runtimeConfigSchema = z.object({
  SG_ROLE: z.enum(['monolith', 'gateway', 'leftover', 'exercise']).default('monolith'),
  SG_REPLICA: z.coerce.number().int().min(0).default(0),
  SG_VARIANT: z.string().default('naked-mon'),
  SG_HOST: z.string().default('127.0.0.1'),
  SG_PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z.string().default('postgres://shellgrade:shellgrade@127.0.0.1:55432/shellgrade'),
  SG_DB_POOL: z.coerce.number().int().min(1).default(10),
  REDIS_URL: z.string().default('redis://127.0.0.1:56379'),
  AMQP_URL: z.string().default('amqp://shellgrade:shellgrade@127.0.0.1:55672'),
  MINIO_ENDPOINT: z.string().default('http://127.0.0.1:59000'),
  MINIO_ACCESS_KEY: z.string().default('shellgrade'),
  MINIO_SECRET_KEY: z.string().default('shellgrade-secret'),
  MINIO_BUCKET: z.string().default('shellgrade-archives'),
  SG_JWT_SECRET: z.string().min(16).default('shellgrade-dev-secret-change-me'),
  SG_ACCESS_TTL_S: z.coerce.number().int().min(1).default(900),
  SG_REFRESH_TTL_S: z.coerce.number().int().min(1).default(7 * 24 * 3600),
  /** log2 of scrypt's N; 14 is node's default (16 MiB, ~50 ms). */
  SG_KDF_COST: z.coerce.number().int().min(1).max(20).default(14),
  SG_CORS_ORIGINS: z.string().default('*'),
  SG_DISPATCH: z.enum(['inline', 'http', 'rabbitmq', 'bullmq']).default('inline'),
  SG_REPLY: z.enum(['sync', 'async']).default('sync'),
  SG_STORAGE: z.enum(['postgres', 'minio']).default('postgres'),
  SG_CACHE: z.enum(['none', 'redis']).default('none'),
  /** Lifetime of a cached submission context (cache: redis): a safety net behind the API's invalidation. */
  SG_CACHE_TTL_S: z.coerce.number().int().min(1).default(300),
  SG_GRADER_EXEC: z.enum(['async', 'blocking', 'pool']).default('async'),
  SG_ISOLATION: z.enum(['bwrap', 'none']).default('bwrap'),
  SG_PYTHON: z.string().default('/root/.pyenv/versions/3.11.7/bin/python3'),
  SG_SANDBOX_ROOT: z.string().default('/tmp/shellgrade-sandbox'),
  SG_GRADER_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Niceness of grader processes (0..19); see grader.nice in the variant spec. */
  SG_GRADER_NICE: z.coerce.number().int().min(0).max(19).default(0),
  SG_MAX_ARCHIVE_BYTES: z.coerce.number().int().min(1).default(1024 * 1024),
  SG_MAX_BODY_BYTES: z.coerce.number().int().min(1).default(8 * 1024 * 1024),
  SG_LEFTOVER_URL: z.string().default('http://127.0.0.1:3200'),
  SG_EXERCISE_URL: z.string().default('http://127.0.0.1:3300'),
  SG_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
  /**
   * Concurrent gateway connections per upstream URL; beyond it requests wait inside the gateway.
   * Sync SPS hold theirs while grading (seconds under load), so this must exceed the SPS in flight.
   */
  SG_UPSTREAM_MAX_SOCKETS: z.coerce.number().int().min(1).default(1024),
  SG_TRACING: bool.default(false),
  SG_TRACE_SAMPLE: z.coerce.number().min(0).max(1).default(1),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().default('http://127.0.0.1:4318'),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/** Parses the environment; a bad value fails fast with the variable's name. */
export function loadRuntimeConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const parsed = runtimeConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid runtime configuration:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}
