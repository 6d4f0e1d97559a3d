// Password hashing under load (src/server/auth/passwords.ts; docs/performance.md 'Under load'): at
// most HASH_CONCURRENCY derivations run at once, the others wait in order, and every one ends.
import { afterEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ active: 0, most: 0, order: [] as string[] }));

// A derivation that takes 20 ms: counts how many run at once.
vi.mock('../../../src/server/auth/hash-process', async () => {
  const { createHash } = await import('node:crypto');
  return {
    HASH_CONCURRENCY: 2,
    deriveApart: (password: string, _salt: Buffer, bytes: number) => {
      calls.active++;
      calls.most = Math.max(calls.most, calls.active);
      calls.order.push(password);
      return new Promise<Buffer>((resolve) =>
        setTimeout(() => {
          calls.active--;
          resolve(createHash('sha256').update(password).digest().subarray(0, bytes));
        }, 20),
      );
    },
  };
});

const { HASH_CONCURRENCY, hashPassword, verifyPassword } = await import('../../../src/server/auth/passwords');

afterEach(() => {
  calls.active = 0;
  calls.most = 0;
  calls.order = [];
});

describe('password hashing', () => {
  it('runs at most HASH_CONCURRENCY derivations at once, in the order they were asked for', async () => {
    expect(HASH_CONCURRENCY).toBeGreaterThanOrEqual(1);
    const passwords = Array.from({ length: HASH_CONCURRENCY * 3 + 1 }, (_, i) => `password-${i}`);
    const hashes = await Promise.all(passwords.map((p) => hashPassword(p)));
    expect(calls.most).toBe(HASH_CONCURRENCY);
    expect(calls.order).toEqual(passwords);
    expect(hashes.every((h) => h.startsWith('scrypt$32768$8$1$'))).toBe(true);
  });

  it('frees its turn when a check fails, so later checks still run', async () => {
    const stored = await hashPassword('right-password');
    const checks = await Promise.all([verifyPassword('wrong', stored), verifyPassword('right-password', stored), verifyPassword('x', 'not a hash')]);
    expect(checks).toEqual([false, true, false]);
    expect(calls.active).toBe(0);
    // A turn is still free afterwards: one more derivation runs at once.
    await expect(verifyPassword('right-password', stored)).resolves.toBe(true);
  });
});
