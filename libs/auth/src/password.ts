/**
 * Password hashing. The spec's auth.kdfCost picks the scheme of new hashes:
 * - 14 and above (the secure default): argon2id at OWASP's password-storage minimum,
 *   m = 19 MiB, t = 2, p = 1, the memory doubling with each step above 14 (as scrypt's N did).
 *   Measured here at 0.29 × the CPU per hash of the scrypt N = 2^14 it replaces, 0.42 × per
 *   login (benchmarks/src/password-hash-bench.ts, login-cpu-bench.ts), and stronger: OWASP's
 *   scrypt minimum is N = 2^17, not 2^14.
 * - below 14: scrypt N = 2^cost, the paper-faithful cheap login (cost 1 ~ the original's one
 *   salted SHA-512), unchanged so such runs stay comparable with earlier ones. Loopback only
 *   (secret-policy.ts).
 * Stored strings describe themselves (argon2id: the PHC string `$argon2id$v=19$m=…,t=…,p=…$…`),
 * so any stored hash verifies whatever the cost now is, and `needsRehash` says when a login
 * should replace it with the current scheme.
 */
import { Algorithm, hash as argon2Hash, parseOptions, verify as argon2Verify } from '@node-rs/argon2';
import { parseScryptHash, type ScryptHash, SCRYPT_PREFIX, scryptHash, scryptVerify } from './scrypt-hash';

/** From this cost on, new hashes are argon2id (secret-policy.ts refuses less outside loopback). */
export const ARGON2_FROM_COST = 14;
/** OWASP password-storage cheat sheet, argon2id: 19 MiB, 2 iterations, 1 degree of parallelism. */
const OWASP_ARGON2ID = { memoryKiB: 19 * 1024, timeCost: 2, parallelism: 1 } as const;
const ARGON2ID_PREFIX = '$argon2id$';

export interface Argon2Params {
  memoryKiB: number;
  timeCost: number;
  parallelism: number;
}

/** The argon2id parameters of a secure cost; undefined below ARGON2_FROM_COST (scrypt). */
export function argon2ParamsFor(cost: number): Argon2Params | undefined {
  if (cost < ARGON2_FROM_COST) return undefined;
  return { ...OWASP_ARGON2ID, memoryKiB: OWASP_ARGON2ID.memoryKiB * 2 ** (cost - ARGON2_FROM_COST) };
}

/** Hashes with a fresh random salt; cost: spec auth.kdfCost (see above). */
export async function hashPassword(password: string, cost: number): Promise<string> {
  if (!Number.isInteger(cost) || cost < 1 || cost > 20) throw new RangeError(`KDF cost must be an integer in 1..20, got ${cost}`);
  const argon2 = argon2ParamsFor(cost);
  if (!argon2) return scryptHash(password, cost);
  return argon2Hash(password.normalize('NFC'), {
    algorithm: Algorithm.Argon2id,
    memoryCost: argon2.memoryKiB,
    timeCost: argon2.timeCost,
    parallelism: argon2.parallelism,
  });
}

/** The parameters of a stored scrypt hash (null: not one, or malformed). */
export function parsePasswordHash(stored: string): ScryptHash | null {
  return parseScryptHash(stored);
}

function parseArgon2id(stored: string): Argon2Params | null {
  if (!stored.startsWith(ARGON2ID_PREFIX)) return null;
  try {
    const o = parseOptions(stored);
    return { memoryKiB: o.memoryCost, timeCost: o.timeCost, parallelism: o.parallelism };
  } catch {
    return null;
  }
}

/** Constant-time comparison (in either scheme); a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith(SCRYPT_PREFIX)) return scryptVerify(password, stored);
  if (!parseArgon2id(stored)) return false;
  return argon2Verify(stored, password.normalize('NFC')).catch(() => false);
}

/**
 * True when a stored hash that just matched should be replaced by one of `cost`: it is scrypt
 * (or weaker argon2id) while the cost asks for argon2id. Never the other way: a cheap
 * (paper-faithful) cost does not downgrade a secure hash.
 */
export function needsRehash(stored: string, cost: number): boolean {
  const target = argon2ParamsFor(cost);
  if (!target) return false;
  const current = parseArgon2id(stored);
  return !current || current.memoryKiB < target.memoryKiB || current.timeCost < target.timeCost;
}
