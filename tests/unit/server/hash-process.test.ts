// The helper process of scrypt derivations (src/server/auth/hash-process.ts): the same keys as
// node:crypto's in this process, several at once, and a new helper after one died.
import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveApart, helperPid } from '../../../src/server/auth/hash-process';

const OPTIONS = { N: 1024, r: 8, p: 1 };

describe('hash process', () => {
  it('derives the keys node:crypto derives, several at once', async () => {
    const salts = Array.from({ length: 5 }, (_, i) => Buffer.from(`salt-${i}`));
    const keys = await Promise.all(salts.map((salt, i) => deriveApart(`password ${i}`, salt, 32, OPTIONS)));
    keys.forEach((key, i) => expect(key.equals(scryptSync(`password ${i}`, salts[i], 32, OPTIONS))).toBe(true));
  });

  it('answers with this process’s own derivation when the helper is gone, and starts another', async () => {
    const salt = Buffer.from('salt');
    const want = scryptSync('pw', salt, 32, OPTIONS);
    await deriveApart('pw', salt, 32, OPTIONS);
    const pid = helperPid();
    expect(pid).not.toBeNull();
    // Killed during a derivation.
    const during = deriveApart('pw', salt, 32, { ...OPTIONS, N: 16384 });
    process.kill(pid!, 'SIGKILL');
    expect((await during).equals(scryptSync('pw', salt, 32, { ...OPTIONS, N: 16384 }))).toBe(true);
    expect((await deriveApart('pw', salt, 32, OPTIONS)).equals(want)).toBe(true);
    expect(helperPid()).not.toBe(pid);
    expect(helperPid()).not.toBeNull();
  });

  it('refuses options node:crypto refuses', async () => {
    await expect(deriveApart('pw', Buffer.from('salt'), 32, { N: 1000 })).rejects.toThrow();
  });
});
