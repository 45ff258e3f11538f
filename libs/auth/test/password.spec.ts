import { hashPassword, parsePasswordHash, verifyPassword } from '../src/password';

describe('scrypt password hashing', () => {
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

  it('handles costs above node default memory cap', async () => {
    const stored = await hashPassword('pw', 15);
    await expect(verifyPassword('pw', stored)).resolves.toBe(true);
  });

  it.each(['', 'plain', 'bcrypt$10$x', 'scrypt$99$8$1$c2FsdA==$aGFzaGhhc2hoYXNoaGFzaA==', 'scrypt$10$8$1$$aGFzaA=='])(
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
