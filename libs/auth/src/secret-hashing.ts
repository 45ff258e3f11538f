/**
 * The SECRET_HASHING port's adapter: passwords and enrolment keys hashed at the deployment's
 * KDF cost (spec auth.kdfCost, password.ts), so a controller stores a hash without knowing the
 * scheme or the cost — and cannot pick a weaker one.
 */
import { hashEnrolmentKey, verifyEnrolmentKey } from './enrolment-key';
import { hashPassword } from './password';
import type { SecretHashing } from './ports';

export class KdfSecretHashing implements SecretHashing {
  constructor(private readonly kdfCost: number) {}

  hashPassword(password: string): Promise<string> {
    return hashPassword(password, this.kdfCost);
  }

  hashEnrolmentKey(key: string): Promise<string> {
    return hashEnrolmentKey(key, this.kdfCost);
  }

  verifyEnrolmentKey(key: string, stored: string): Promise<boolean> {
    return verifyEnrolmentKey(key, stored);
  }
}
