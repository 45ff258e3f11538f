/**
 * Password hashing with scrypt (node:crypto). The stored string describes its own
 * parameters, so raising the spec's auth.kdfCost later does not invalidate existing hashes:
 *   scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const PREFIX = 'scrypt';
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

interface ParsedHash {
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

/** Hashes with a fresh random salt; cost is log2 of scrypt's N (spec: auth.kdfCost). */
export async function hashPassword(password: string, cost: number): Promise<string> {
  if (!Number.isInteger(cost) || cost < 1 || cost > 20) throw new RangeError(`KDF cost must be an integer in 1..20, got ${cost}`);
  const salt = randomBytes(SALT_LENGTH);
  const hash = await derive(password, salt, cost, BLOCK_SIZE, PARALLELISM, KEY_LENGTH);
  return [PREFIX, cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), hash.toString('base64')].join('$');
}

export function parsePasswordHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return null;
  const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![logN, r, p].every((n) => Number.isInteger(n) && n > 0) || logN > 20 || r > 32 || p > 16) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const hash = Buffer.from(parts[5]!, 'base64');
  if (salt.length === 0 || hash.length < 16) return null;
  return { logN, r, p, salt, hash };
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.logN, parsed.r, parsed.p, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}
