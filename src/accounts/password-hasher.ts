import type { HashSlots } from './hash-slots.ts';
import { hashPassword, verifyPassword, type ScryptParams } from './passwords.ts';

/**
 * Password hashing as the service uses it: new hashes at the current cost, and every hash
 * or check taking one of the bounded slots.
 *
 * @example
 * const hasher = new PasswordHasher(scryptParams(2 ** 17), new HashSlots({ concurrent: 2, queued: 64 }));
 * await hasher.verify('correct horse', account.password_hash); // true
 */
export class PasswordHasher {
  private readonly prefix: string;

  constructor(
    readonly params: ScryptParams,
    private readonly slots: HashSlots,
  ) {
    this.prefix = `$scrypt$ln=${Math.log2(params.N)},r=${params.r},p=${params.p}$`;
  }

  hash(password: string): Promise<string> {
    return this.slots.run(() => hashPassword(password, this.params));
  }

  verify(password: string, stored: string): Promise<boolean> {
    return this.slots.run(() => verifyPassword(password, stored));
  }

  /** Whether `stored` was hashed at the current cost. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(this.prefix);
  }
}
