/**
 * No default secret outside development (docs/design.md, Untrusted input). A process refuses to
 * start when its token-signing secret is missing, short or a published default, when a credential
 * it uses (database, broker, object store) is a published default, or when its password hashing is
 * cheaper than the secure minimum — unless it runs in development mode. `auto` (the default) means
 * development only while nothing beyond loopback reaches the process: neither its own bind address
 * nor the address a proxy in front of it listens on (`variant up --listen` exposes HAProxy, not the
 * replicas behind it, and they answer the network all the same). Where it is reached from is
 * decided once, by the wiring (libs/wiring exposure.ts), for this policy and the grader's isolation
 * guard alike.
 */
import { ARGON2_FROM_COST } from './password';

export type SecretMode = 'development' | 'production' | 'auto';

/** The secrets one process uses (only those of the adapters its variant plugs in), and where it is reached from. */
export interface ProcessSecrets {
  /** Who refuses, for the message (e.g. "leftover replica 0"). */
  process?: string;
  /** The addresses beyond loopback this process answers on, directly or through a proxy (empty: loopback only). */
  exposedOn: string[];
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

export function isDevelopment(exposedOn: readonly string[], mode: SecretMode): boolean {
  if (mode !== 'auto') return mode === 'development';
  return exposedOn.length === 0;
}

/** Throws (the process does not start) when a production process has a default or missing secret. */
export function refuseDefaultSecrets(secrets: ProcessSecrets, mode: SecretMode): void {
  if (isDevelopment(secrets.exposedOn, mode)) return;
  const problems = secretProblems(secrets);
  if (problems.length === 0) return;
  const who = secrets.process ?? 'this process';
  const where = secrets.exposedOn.length > 0 ? `is reached on ${secrets.exposedOn.join(', ')} (beyond loopback)` : `runs with auth.secretPolicy ${mode}`;
  throw new Error(
    `refusing to start outside development mode: ${who} ${where} with default or missing secrets:\n  - ${problems.join('\n  - ')}\n` +
      `Generate per-installation secrets and hash passwords at auth.kdfCost ${MIN_SECURE_KDF_COST} or more, or keep the variant on loopback (no --listen) / in development mode.`,
  );
}
