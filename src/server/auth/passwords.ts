/**
 * Password hashing with node:crypto scrypt (000 5 Password; docs/architecture.md 'Sign-in').
 * Stored format: `scrypt$N$r$p$<salt base64url>$<hash base64url>`, so the cost can be raised later
 * without invalidating stored hashes.
 *
 * A derivation is a whole core's work for 60 to 200 ms and runs on libuv's thread pool (4 threads
 * unless UV_THREADPOOL_SIZE says otherwise), which also serves file I/O (uploads, the CSV import's
 * file), DNS and zlib. Unbounded, a burst of sign-ins took every thread and every core: an import's
 * file writes waited seconds behind them and the event loop got a third of the CPU
 * (docs/performance.md 'Under load'). So at most `HASH_CONCURRENCY` derivations run at once; the
 * others wait their turn here, in order. They run in a helper process that keeps their memory
 * between derivations (./hash-process.ts).
 */
import { randomBytes, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { deriveApart, HASH_CONCURRENCY } from './hash-process';

export { HASH_CONCURRENCY } from './hash-process';

/** Cost parameters of new hashes: N = 2^15, r = 8, p = 1 (32 MiB; 70 ms a hash on the 2-core bench machine, docs/performance.md 'Under load'). */
const N = 32_768;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

let running = 0;
const waiting: Array<() => void> = [];

/** Runs `work` when fewer than HASH_CONCURRENCY derivations run (first come, first served). */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_CONCURRENCY) await new Promise<void>((go) => waiting.push(go));
  else running++;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, so a newcomer cannot overtake it.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const maxmem = 256 * (options.N ?? N) * (options.r ?? R);
  return inTurn(() => deriveApart(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem }));
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
