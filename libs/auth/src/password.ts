/**
 * Password hashing. The spec's auth.kdfCost picks the scheme of new hashes:
 * - 14 and above (the secure default): argon2id at OWASP's password-storage level. The cheat
 *   sheet lists five settings of equal strength (46 MiB × 1 pass … 7 MiB × 5 passes, p = 1,
 *   argon2-strength.ts); new hashes take m = 7 MiB, t = 5, p = 1, the one of least CPU per
 *   verify as measured here (`npm run bench -- password-hash`: 0.70 × the CPU per verify of
 *   19 MiB × 2, the secure default before; `bench -- login-cpu`: 0.75 × per login). Less
 *   memory is cheaper to verify with: the binding maps its memory afresh per call, and the
 *   kernel's zeroing of it is the system-time share. Each step above 14 doubles the memory
 *   (as scrypt's N did).
 *   Hashes stored at any row of the level stay: `needsRehash` counts the rows as equal.
 * - below 14: scrypt N = 2^cost, the paper-faithful cheap login (cost 1 ~ the original's one
 *   salted SHA-512), unchanged so such runs stay comparable with earlier ones. Loopback only
 *   (secret-policy.ts).
 * Stored strings describe themselves (argon2id: the PHC string `$argon2id$v=19$m=…,t=…,p=…$…`),
 * so any stored hash verifies whatever the cost now is, and `needsRehash` says when a login
 * should replace it with the current scheme.
 */
import { Algorithm, hash as argon2Hash, parseOptions, verify as argon2Verify, Version } from '@node-rs/argon2';
import { argon2LevelOf, atLeastAsStrong, OWASP_ARGON2ID_ROWS, OWASP_LEVEL_COST } from './argon2-strength';
import { parseScryptHash, type ScryptHash, SCRYPT_PREFIX, scryptHash, scryptVerify } from './scrypt-hash';

/** From this cost on, new hashes are argon2id (secret-policy.ts refuses less outside loopback). */
export const ARGON2_FROM_COST = OWASP_LEVEL_COST;
/** Which OWASP row new hashes take: the last, 7 MiB × 5 passes, the least CPU per verify of the five (see above). */
const NEW_HASH_ROW_INDEX = OWASP_ARGON2ID_ROWS.length - 1;
const ARGON2ID_PREFIX = '$argon2id$';

export interface Argon2Params {
  memoryKiB: number;
  timeCost: number;
  parallelism: number;
}

interface StoredArgon2 extends Argon2Params {
  /** Argon2 1.3 (v=19); 1.0 (v=16, the original paper's) reuses memory blocks more weakly. */
  version13: boolean;
}

/** The argon2id parameters of a secure cost; undefined below ARGON2_FROM_COST (scrypt). */
export function argon2ParamsFor(cost: number): Argon2Params | undefined {
  if (cost < ARGON2_FROM_COST) return undefined;
  // The level's own scaling (argon2-strength.ts), so new hashes and needsRehash cannot disagree on it.
  return { ...argon2LevelOf(cost)[NEW_HASH_ROW_INDEX], parallelism: 1 };
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

function parseArgon2id(stored: string): StoredArgon2 | null {
  if (!stored.startsWith(ARGON2ID_PREFIX)) return null;
  try {
    const o = parseOptions(stored);
    return { memoryKiB: o.memoryCost, timeCost: o.timeCost, parallelism: o.parallelism, version13: o.version === Version.V0x13 };
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
 * True when a stored hash that just matched should be replaced by one of `cost`: it is scrypt,
 * Argon2 1.0, or argon2id weaker than the level of `cost` (argon2-strength.ts: any OWASP row of
 * the level counts, so a 19 MiB × 2 hash is not redone at 7 MiB × 5). Never the other way: a
 * cheap (paper-faithful) cost does not downgrade a secure hash, nor rewrite a scrypt one.
 */
export function needsRehash(stored: string, cost: number): boolean {
  if (cost < ARGON2_FROM_COST) return false;
  const current = parseArgon2id(stored);
  return !current || !current.version13 || !atLeastAsStrong(current, argon2LevelOf(cost));
}
