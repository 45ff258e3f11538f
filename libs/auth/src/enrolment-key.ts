/**
 * Enrolment keys: long, random by default, stored hashed like passwords (a leaked table gives no key away).
 * Wrong keys are rate-limited per user (RateLimits), so a long key cannot be guessed online.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashPassword, verifyPassword } from './password';

/** A fresh key when the teacher gives none: 20 characters of base32 (100 bits). */
export function generateEnrolmentKey(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  return [...randomBytes(20)].map((b) => alphabet[b % 32]).join('');
}

export const hashEnrolmentKey = (key: string, kdfCost: number): Promise<string> => hashPassword(key, kdfCost);

/** Constant-time check against a password-style hash (argon2id or scrypt), or a `sha256$<hex>` one left by the migration of clear keys. */
export async function verifyEnrolmentKey(key: string, stored: string): Promise<boolean> {
  if (!stored.startsWith('sha256$')) return verifyPassword(key, stored);
  const expected = Buffer.from(stored.slice('sha256$'.length), 'hex');
  const given = createHash('sha256').update(key, 'utf8').digest();
  return expected.length === given.length && timingSafeEqual(expected, given);
}
