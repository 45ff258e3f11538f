/**
 * Where this machine's servers are, their credentials and the host paths a process needs:
 * the only settings still read from individual environment variables (secrets stay out of
 * the serialized spec, and addresses differ per machine). Every tunable is in the spec.
 * Defaults are the loopback servers that infra/bin/servers starts.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';

/** Where job folders go unless SG_SANDBOX_ROOT says otherwise. */
export const DEFAULT_SANDBOX_ROOT = '/var/lib/shellgrade/sandbox';

/**
 * The benchmark results folder unless SG_RESULTS_DIR says otherwise: the enclosing repository's
 * results/ (as benchmarks/src/paths.ts resolves it), from the sources or the build.
 */
export function defaultResultsDir(): string {
  let dir = __dirname;
  for (;;) {
    if (existsSync(join(dir, 'k6', 'profiles.json')) && existsSync(join(dir, 'benchmarks'))) return join(dir, 'results');
    const parent = dirname(dir);
    if (parent === dir) return resolve('results');
    dir = parent;
  }
}

export const connectionsSchema = z.object({
  DATABASE_URL: z.string().default('postgres://shellgrade:shellgrade@127.0.0.1:55432/shellgrade'),
  REDIS_URL: z.string().default('redis://127.0.0.1:56379'),
  AMQP_URL: z.string().default('amqp://shellgrade:shellgrade@127.0.0.1:55672'),
  MINIO_ENDPOINT: z.string().default('http://127.0.0.1:59000'),
  MINIO_ACCESS_KEY: z.string().default('shellgrade'),
  MINIO_SECRET_KEY: z.string().default('shellgrade-secret'),
  MINIO_BUCKET: z.string().default('shellgrade-archives'),
  SG_JWT_SECRET: z.string().min(16).default('shellgrade-dev-secret-change-me'),
  SG_PYTHON: z.string().default('/root/.pyenv/versions/3.11.7/bin/python3'),
  // Root-owned, not the world-writable /tmp where anyone could create the folder first (the
  // grader refuses a root it does not own or that others can write: libs/grading job-dirs.ts).
  SG_SANDBOX_ROOT: z.string().default(DEFAULT_SANDBOX_ROOT),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().default('http://127.0.0.1:4318'),
  /** Jaeger's query API, relayed (internal callers only) for the web app's trace view. */
  JAEGER_QUERY_URL: z.string().default('http://127.0.0.1:16686'),
  /** Benchmark runs (benchmarks/ writes them), listed read-only by the web app's console. */
  SG_RESULTS_DIR: z.string().default(defaultResultsDir),
});

export type Connections = z.infer<typeof connectionsSchema>;

/** Parses the environment; a bad value fails fast with the variable's name. */
export function loadConnections(env: NodeJS.ProcessEnv = process.env): Connections {
  const parsed = connectionsSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid connection settings:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}
