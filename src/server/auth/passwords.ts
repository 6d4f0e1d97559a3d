/**
 * Password hashing with node:crypto scrypt (000 5 Password; docs/architecture.md 'Sign-in').
 * Stored format: `scrypt$N$r$p$<salt base64url>$<hash base64url>`, so the cost can be raised later
 * without invalidating stored hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Cost parameters of new hashes: N = 2^15, r = 8, p = 1 (32 MiB, tens of ms per hash). */
const N = 32_768;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const maxmem = 256 * (options.N ?? N) * (options.r ?? R);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashes a password with a new random salt; resolves to the stored format above. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether `password` matches a stored hash (constant-time comparison). A malformed stored value
 * answers false, never throws.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every((x) => Number.isInteger(x) && x > 0)) return false;
  const expected = Buffer.from(parts[5], 'base64url');
  if (expected.length === 0) return false;
  try {
    const key = await derive(password, Buffer.from(parts[4], 'base64url'), { N: n, r, p });
    return key.length === expected.length && timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}
