/**
 * No default secret outside development (issue 22 item 4, DESIGN §8). A process refuses to
 * start when its token-signing secret is missing, short or a published default, when a
 * credential it uses (database, broker, object store) is a published default, or when its
 * password hashing is cheaper than the secure minimum (issue 21 item 3) — unless it
 * runs in development mode. `auto` (the default) means development only while the process
 * listens on loopback: nothing outside the machine can reach it, so the launcher's dev
 * defaults are harmless there; bound to any other address (compose, Kubernetes) it is
 * production and needs generated secrets.
 */
import { isIP } from 'node:net';
import { ARGON2_FROM_COST } from './password';

export type SecretMode = 'development' | 'production' | 'auto';

/** The secrets one process uses (only those of the adapters its variant plugs in), and where it listens. */
export interface ProcessSecrets {
  host: string;
  jwtSecret?: string;
  databaseUrl?: string;
  /** dispatch: rabbitmq only. */
  brokerUrl?: string;
  /** Whenever the process uses Redis (BullMQ broker, shared rate-limit counters, cache). */
  redisUrl?: string;
  /** storage: minio only. */
  objectStore?: { accessKey?: string; secretKey?: string };
  /** Cost of new password hashes (spec auth.kdfCost; password.ts: 14 = argon2id at OWASP's minimum). */
  kdfCost?: number;
}

/** The literals shipped in this repository's defaults and docs: public, hence never secret. */
const PUBLISHED_DEFAULTS = new Set(['shellgrade-dev-secret-change-me', 'shellgrade', 'shellgrade-secret', 'change-me', 'secret', 'password', 'minioadmin']);
export const MIN_TOKEN_SECRET_LENGTH = 32;
/** argon2id at OWASP's minimum (password.ts): below it a cost is scrypt N = 2^cost, a paper-faithful benchmark setting, not a protection. */
export const MIN_SECURE_KDF_COST = ARGON2_FROM_COST;

const isDefault = (value: string | undefined) => !value || PUBLISHED_DEFAULTS.has(value);

function urlPassword(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return undefined;
  }
}

/** What is wrong with these secrets for a production process (empty: nothing). Never echoes a value. */
export function secretProblems(s: ProcessSecrets): string[] {
  const problems: string[] = [];
  if (isDefault(s.jwtSecret)) problems.push('SG_JWT_SECRET is missing or a published default');
  else if (s.jwtSecret!.length < MIN_TOKEN_SECRET_LENGTH) problems.push(`SG_JWT_SECRET is shorter than ${MIN_TOKEN_SECRET_LENGTH} characters`);
  if (s.databaseUrl !== undefined && isDefault(urlPassword(s.databaseUrl))) problems.push('DATABASE_URL has no password or a published default one');
  if (s.brokerUrl !== undefined && isDefault(urlPassword(s.brokerUrl))) problems.push('AMQP_URL has no password or a published default one');
  if (s.redisUrl !== undefined && isDefault(urlPassword(s.redisUrl))) problems.push('REDIS_URL has no password or a published default one');
  if (s.objectStore && (isDefault(s.objectStore.accessKey) || isDefault(s.objectStore.secretKey))) {
    problems.push('MINIO_ACCESS_KEY / MINIO_SECRET_KEY are missing or published defaults');
  }
  if (s.kdfCost !== undefined && s.kdfCost < MIN_SECURE_KDF_COST) {
    problems.push(`auth.kdfCost ${s.kdfCost} is below ${MIN_SECURE_KDF_COST}: cheap password hashing is for loopback benchmarks (paper-faithful login cost) only`);
  }
  return problems;
}

export function isDevelopment(host: string, mode: SecretMode): boolean {
  if (mode !== 'auto') return mode === 'development';
  return isLoopback(host);
}

/** Throws (the process does not start) when a production process has a default or missing secret. */
export function refuseDefaultSecrets(secrets: ProcessSecrets, mode: SecretMode): void {
  if (isDevelopment(secrets.host, mode)) return;
  const problems = secretProblems(secrets);
  if (problems.length === 0) return;
  throw new Error(
    `refusing to start outside development mode with default or missing secrets:\n  - ${problems.join('\n  - ')}\n` +
      'Generate per-installation secrets, or run bound to loopback / in development mode.',
  );
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
