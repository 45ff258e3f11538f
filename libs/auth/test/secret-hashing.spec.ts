import { KdfSecretHashing } from '../src/secret-hashing';
import { verifyPassword } from '../src/password';

describe('KdfSecretHashing (the SECRET_HASHING port)', () => {
  it('hashes at the cost it was bound with: scrypt below 14, argon2id from 14', async () => {
    expect(await new KdfSecretHashing(1).hashPassword('correct horse')).toMatch(/^scrypt\$/);
    expect(await new KdfSecretHashing(14).hashPassword('correct horse')).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
  });

  it('stores a password and an enrolment key that verify, and refuses a wrong key', async () => {
    const secrets = new KdfSecretHashing(1);
    expect(await verifyPassword('correct horse', await secrets.hashPassword('correct horse'))).toBe(true);
    const stored = await secrets.hashEnrolmentKey('a long enrolment key');
    expect(await secrets.verifyEnrolmentKey('a long enrolment key', stored)).toBe(true);
    expect(await secrets.verifyEnrolmentKey('a wrong enrolment key', stored)).toBe(false);
  });
});
