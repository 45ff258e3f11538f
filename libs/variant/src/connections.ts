/**
 * Where this machine's servers are, their credentials and the host paths a process needs:
 * the only settings still read from individual environment variables (secrets stay out of
 * the serialized spec, and addresses differ per machine). Every tunable is in the spec.
 * Defaults are the loopback servers that infra/bin/servers starts.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
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

/** This machine's PostgreSQL (infra/servers/postgres.sh) over loopback TCP. */
export const LOOPBACK_DATABASE_URL = 'postgres://shellgrade:shellgrade@127.0.0.1:55432/shellgrade';

/**
 * The database unless DATABASE_URL says otherwise: this machine's PostgreSQL through its unix
 * socket when infra/bin/servers runs it here (a query costs about a fifth less CPU, both sides
 * counted, than over loopback TCP), else over loopback TCP. A hop routed through a fault proxy
 * goes back to TCP (hops.ts).
 */
export function defaultDatabaseUrl(repoRoot = dirname(defaultResultsDir())): string {
  const socketDir = join(repoRoot, 'run', 'postgres', 'socket');
  const port = new URL(LOOPBACK_DATABASE_URL).port;
  return existsSync(join(socketDir, `.s.PGSQL.${port}`)) ? `${LOOPBACK_DATABASE_URL}?host=${encodeURIComponent(socketDir)}` : LOOPBACK_DATABASE_URL;
}

/** The graders' interpreter built by `servers install grader-python` (same path as libs/grading grader-python.ts; a wiring test holds them together). */
export function defaultGraderPython(env: NodeJS.ProcessEnv = process.env): string {
  const tools = env.SHELLGRADE_TOOLS ?? join(homedir(), '.cache', 'shellgrade', 'tools');
  return join(tools, 'python-3.11.16', 'bin', 'python3');
}

export const connectionsSchema = z.object({
  DATABASE_URL: z.string().default(() => defaultDatabaseUrl()),
  REDIS_URL: z.string().default('redis://127.0.0.1:56379'),
  AMQP_URL: z.string().default('amqp://shellgrade:shellgrade@127.0.0.1:55672'),
  MINIO_ENDPOINT: z.string().default('http://127.0.0.1:59000'),
  MINIO_ACCESS_KEY: z.string().default('shellgrade'),
  MINIO_SECRET_KEY: z.string().default('shellgrade-secret'),
  MINIO_BUCKET: z.string().default('shellgrade-archives'),
  SG_JWT_SECRET: z.string().min(16).default('shellgrade-dev-secret-change-me'),
  /** Opens /metrics, /docs and /health detail to whoever presents it (run/secrets.json, generated per installation); none: loopback callers only. */
  SG_SCRAPE_TOKEN: z.string().min(32, 'SG_SCRAPE_TOKEN must be a generated secret of at least 32 characters').optional(),
  /** The graders' interpreter; default: the one `servers install grader-python` builds (libs/grading grader-python.ts). */
  SG_PYTHON: z.string().default(defaultGraderPython()),
  // Root-owned, not the world-writable /tmp where anyone could create the folder first (the
  // grader refuses a root it does not own or that others can write: libs/grading job-dirs.ts).
  SG_SANDBOX_ROOT: z.string().default(DEFAULT_SANDBOX_ROOT),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().default('http://127.0.0.1:4318'),
  /**
   * Names besides localhost and the loopback addresses by which this machine's own callers address
   * its services and console (comma-separated, e.g. `shellgrade.lab`): a loopback caller whose Host
   * header names any other site is taken for a page rebound to 127.0.0.1 (DNS rebinding), and the
   * operational surfaces answer it 404.
   */
  SG_OPS_HOST_NAMES: z.string().default(''),
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
