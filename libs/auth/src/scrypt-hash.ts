/**
 * scrypt (node:crypto): the paper-faithful cheap setting (auth.kdfCost below 14) and every hash
 * stored before argon2id became the secure default. Self-describing, so any cost still verifies:
 *   scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export const SCRYPT_PREFIX = 'scrypt$';
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export interface ScryptHash {
  logN: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function derive(password: string, salt: Buffer, logN: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  const N = 2 ** logN;
  // scrypt needs 128·N·r bytes; node's default cap (32 MiB) would refuse costs above 14.
  const maxmem = 128 * N * r + 16 * 1024 * 1024;
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyLength, { N, r, p, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** scrypt with N = 2^logN, r = 8, p = 1 and a fresh random salt. */
export async function scryptHash(password: string, logN: number): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const hash = await derive(password, salt, logN, BLOCK_SIZE, PARALLELISM, KEY_LENGTH);
  return [SCRYPT_PREFIX.slice(0, -1), logN, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), hash.toString('base64')].join('$');
}

export function parseScryptHash(stored: string): ScryptHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || `${parts[0]}$` !== SCRYPT_PREFIX) return null;
  const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![logN, r, p].every((n) => Number.isInteger(n) && n > 0) || logN > 20 || r > 32 || p > 16) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const hash = Buffer.from(parts[5]!, 'base64');
  if (salt.length === 0 || hash.length < 16) return null;
  return { logN, r, p, salt, hash };
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function scryptVerify(password: string, stored: string): Promise<boolean> {
  const parsed = parseScryptHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.logN, parsed.r, parsed.p, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}
