import { Algorithm, hash as argon2Hash } from '@node-rs/argon2';
import { argon2ParamsFor, hashPassword, needsRehash, parsePasswordHash, verifyPassword } from '../src/password';

/** A well-formed argon2id PHC string of the given setting (salt and hash are placeholders: only the parameters are read). */
const phc = (memoryKiB: number, timeCost: number, version = 19) => `$argon2id$v=${version}$m=${memoryKiB},t=${timeCost},p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g`;

describe('scrypt password hashing (costs below 14: the paper-faithful cheap setting, and hashes stored before argon2id)', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('correct horse', 10);
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horsE', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
  });

  it('writes a self-describing format with the configured cost and a fresh salt', async () => {
    const a = await hashPassword('pw', 11);
    const b = await hashPassword('pw', 11);
    expect(a).toMatch(/^scrypt\$11\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toEqual(b);
    expect(parsePasswordHash(a)).toMatchObject({ logN: 11, r: 8, p: 1 });
  });

  it('verifies hashes made with another cost (cost can change without invalidating accounts)', async () => {
    const old = await hashPassword('pw', 8);
    await expect(verifyPassword('pw', old)).resolves.toBe(true);
  });

  it('kdfCost 1 stays the cheap scrypt N = 2 (paper-faithful login cost)', async () => {
    expect(parsePasswordHash(await hashPassword('pw', 1))).toMatchObject({ logN: 1 });
  });

  it.each(['', 'plain', 'bcrypt$10$x', 'scrypt$99$8$1$c2FsdA==$aGFzaGhhc2hoYXNoaGFzaA==', 'scrypt$10$8$1$$aGFzaA==', '$argon2id$v=19$m=19456,t=2,p=1$x', '$argon2id$garbage'])(
    'never matches a malformed stored hash %p',
    async (stored) => {
      await expect(verifyPassword('pw', stored)).resolves.toBe(false);
    },
  );

  it('rejects an invalid cost', async () => {
    await expect(hashPassword('pw', 0)).rejects.toThrow(RangeError);
    await expect(hashPassword('pw', 21)).rejects.toThrow(RangeError);
  });
});

describe('argon2id password hashing (the secure default, cost 14 and above)', () => {
  it("hashes at OWASP's cheapest-to-verify row (7 MiB, t = 5, p = 1) as a self-describing PHC string, and verifies it", async () => {
    const stored = await hashPassword('correct horse', 14);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horsE', stored)).resolves.toBe(false);
    expect(stored).not.toEqual(await hashPassword('correct horse', 14));
  });

  it('doubles the memory per step above 14, as scrypt N did', () => {
    expect(argon2ParamsFor(13)).toBeUndefined();
    expect(argon2ParamsFor(14)).toEqual({ memoryKiB: 7_168, timeCost: 5, parallelism: 1 });
    expect(argon2ParamsFor(15)).toEqual({ memoryKiB: 14_336, timeCost: 5, parallelism: 1 });
  });

  it('verifies hashes of every OWASP row (stored before the default row changed)', async () => {
    for (const [m, t] of [[47_104, 1], [19_456, 2], [12_288, 3], [9_216, 4]]) {
      const stored = await argon2Hash('pw', { algorithm: Algorithm.Argon2id, memoryCost: m, timeCost: t, parallelism: 1 });
      await expect(verifyPassword('pw', stored)).resolves.toBe(true);
      await expect(verifyPassword('pW', stored)).resolves.toBe(false);
    }
  });

  it('compares the same text whatever its Unicode form (NFC), as scrypt did', async () => {
    const stored = await hashPassword('caf\u00e9', 14);
    await expect(verifyPassword('cafe\u0301', stored)).resolves.toBe(true);
  });
});

describe('needsRehash: which matched hash a login replaces', () => {
  it('replaces scrypt (any cost) and weaker argon2id when the cost asks for argon2id', async () => {
    expect(needsRehash(await hashPassword('pw', 4), 14)).toBe(true);
    expect(needsRehash('scrypt$15$8$1$c2FsdA==$aGFzaGhhc2hoYXNoaGFzaA==', 14)).toBe(true);
    expect(needsRehash('$argon2id$v=19$m=9216,t=3,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA', 14)).toBe(true);
    expect(needsRehash(await hashPassword('pw', 14), 14)).toBe(false);
    expect(needsRehash(await hashPassword('pw', 14), 15)).toBe(true);
  });

  it('keeps a hash of any OWASP row at cost 14: the rows are of equal strength (no churn from 19 MiB × 2 to 7 MiB × 5)', () => {
    for (const [m, t] of [[47_104, 1], [19_456, 2], [12_288, 3], [9_216, 4], [7_168, 5]]) {
      expect(needsRehash(phc(m, t), 14)).toBe(false);
      expect(needsRehash(phc(m, t), 15)).toBe(true);
    }
  });

  it('keeps a stronger hash (never a downgrade), replaces a weaker one, an Argon2 1.0 one and an argon2i one', () => {
    expect(needsRehash(phc(65_536, 3), 14)).toBe(false);
    expect(needsRehash(phc(38_912, 2), 15)).toBe(false);
    expect(needsRehash(phc(40_960, 1), 14)).toBe(true);
    expect(needsRehash(phc(4_096, 10), 14)).toBe(true);
    expect(needsRehash(phc(19_456, 2, 16), 14)).toBe(true);
    expect(needsRehash(phc(19_456, 2).replace('$argon2id$', '$argon2i$'), 14)).toBe(true);
  });

  it('a hash made at any secure cost stays at that cost and is replaced at the next (no rehash loop, raising the cost upgrades)', async () => {
    for (let cost = 14; cost <= 16; cost++) {
      const stored = await hashPassword('pw', cost);
      expect(needsRehash(stored, cost)).toBe(false);
      expect(needsRehash(stored, cost + 1)).toBe(true);
    }
  });

  it('never replaces anything at a cheap (paper-faithful) cost: no downgrade, no extra write', async () => {
    expect(needsRehash(await hashPassword('pw', 14), 1)).toBe(false);
    expect(needsRehash(await hashPassword('pw', 1), 4)).toBe(false);
  });
});
