/**
 * scrypt derivations in a helper process of the server (./passwords.ts; docs/performance.md 'Under
 * load'). A derivation of the stored cost (N = 2^15, r = 8) needs one block of 32 MiB and a little
 * more: above glibc's largest threshold for reusing freed memory (32 MiB), so in the server's process
 * every derivation mapped new memory and faulted in its 8,193 pages (measured on the 2-core bench
 * machine: 4.6 derivations a second at any concurrency, 12.6 with the block kept). The helper is the
 * same node, started with `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=…` above the block, so it keeps
 * the block between derivations (one a thread of its pool: about 45 MB and 32 MiB a thread in all);
 * its libuv pool is not the server's either.
 *
 * Started at the first derivation, it ends with the server (its IPC channel closes) and keeps the
 * server alive only while a derivation is under way. If it cannot start, or dies, the derivations in
 * flight fail over to this process's own scrypt, and the next one starts a new helper.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { scrypt, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';

/**
 * How many derivations run at once (./passwords.ts waits for a turn): one a core, two threads of this
 * process's libuv pool left to file I/O should the helper fail, at least one (2 on two cores with the
 * default pool of 4). The helper's pool has that many threads, so it keeps that many blocks.
 */
export const HASH_CONCURRENCY = Math.max(1, Math.min(availableParallelism(), (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 2));

/** malloc's mmap threshold in the helper, bytes: above one derivation's block of the stored cost. */
const MMAP_THRESHOLD = 64 * 1024 * 1024;

// The helper's program (CommonJS, run with `node -e`): one derivation per message, answered by id.
const PROGRAM = `
const { scrypt } = require('node:crypto');
process.on('message', (m) => {
  scrypt(m.password, Buffer.from(m.salt, 'base64'), m.bytes, m.options, (err, key) => {
    if (process.connected) process.send({ id: m.id, key: key ? key.toString('base64') : null, error: err ? String(err.message) : null });
  });
});
process.on('disconnect', () => process.exit(0));
`;

interface Pending {
  resolve(key: Buffer): void;
  fallback(): void;
}

let helper: ChildProcess | null = null;
const pending = new Map<number, Pending>();
let nextId = 1;

function local(password: string, salt: Buffer, bytes: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password, salt, bytes, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** The helper, started when there is none; null when it cannot be started. */
function started(): ChildProcess | null {
  if (helper?.connected) return helper;
  try {
    const tunables = [process.env.GLIBC_TUNABLES, `glibc.malloc.mmap_threshold=${MMAP_THRESHOLD}`].filter(Boolean).join(':');
    const child = spawn(process.execPath, ['-e', PROGRAM], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: { ...process.env, NODE_OPTIONS: '', GLIBC_TUNABLES: tunables, UV_THREADPOOL_SIZE: String(HASH_CONCURRENCY) },
      serialization: 'json',
    });
    const lost = () => {
      if (helper !== child) return;
      helper = null;
      for (const p of pending.values()) p.fallback();
      pending.clear();
    };
    child.on('message', (m: { id: number; key: string | null; error: string | null }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.key) p.resolve(Buffer.from(m.key, 'base64'));
      else p.fallback();
      if (pending.size === 0) idle(child);
    });
    child.on('error', lost);
    child.on('exit', lost);
    child.on('disconnect', lost);
    helper = child;
    return child;
  } catch {
    return null;
  }
}

/** Nothing under way: the helper no longer keeps the server's process alive. */
function idle(child: ChildProcess): void {
  child.unref();
  child.channel?.unref();
}

/**
 * `scrypt(password, salt, bytes, options)` derived in the helper (see the top of this file); the
 * same key as node:crypto's. Errors: those of node:crypto's scrypt (bad options), from this
 * process's own derivation, which also answers when the helper fails.
 */
export function deriveApart(password: string, salt: Buffer, bytes: number, options: ScryptOptions): Promise<Buffer> {
  const child = started();
  if (!child) return local(password, salt, bytes, options);
  return new Promise<Buffer>((resolve, reject) => {
    const id = nextId++;
    const fallback = () => local(password, salt, bytes, options).then(resolve, reject);
    pending.set(id, { resolve, fallback });
    child.ref();
    child.channel?.ref();
    child.send({ id, password, salt: salt.toString('base64'), bytes, options }, (err) => {
      if (err && pending.delete(id)) fallback();
    });
  });
}

/** The helper's process id while it runs, else null (diagnostics and tests). */
export function helperPid(): number | null {
  return helper?.connected ? (helper.pid ?? null) : null;
}
