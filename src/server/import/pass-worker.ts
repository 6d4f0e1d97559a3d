/**
 * The worker thread side of ./pass-thread.ts (000 5 CSV import, 001 7.16; docs/architecture.md
 * 'Jobs'): runs the passes it is sent (./import-pass.ts `passInto`), their database and their
 * batches being calls answered by the main thread (a batch packed: ./pass-messages.ts
 * `PackedBatch`). A pass the main thread ends (`abort`: a batch failed there) has its calls refused,
 * so it stops at its next query or batch.
 */
import { parentPort } from 'node:worker_threads';
import type { Queryable } from '../db/database';
import { passInto, type PassOptions, type RowSink } from './import-pass';
import { BatchPacker, fromThreadError, threadError, transfers, type FromPassThread, type ToPassThread } from './pass-messages';

type Call = Extract<FromPassThread, { call: number }>;
type CallBody = Call extends infer C ? (C extends Call ? Omit<C, 'pass' | 'call'> : never) : never;

interface Waiting {
  pass: number;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

const port = parentPort!;
const waiting = new Map<number, Waiting>();
const active = new Set<number>();
const aborted = new Set<number>();
let nextCall = 1;

/** Sends a call of pass `pass` to the main thread (`transferList`: buffers moved with it); resolves to its answer. */
function call(pass: number, body: CallBody, transferList: ArrayBuffer[] = []): Promise<unknown> {
  if (aborted.has(pass)) return Promise.reject(new Error('the pass has ended'));
  const id = nextCall++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { pass, resolve, reject });
    port.postMessage({ ...body, pass, call: id } as Call, transferList);
  });
}

async function run(pass: number, options: PassOptions): Promise<void> {
  const db: Queryable = {
    query: async <T>(sql: string, params?: unknown[]) => (await call(pass, { type: 'query', sql, params })) as T[],
    exec: async (sql: string) => void (await call(pass, { type: 'query', sql, exec: true })),
  };
  active.add(pass);
  // A batch waits here as a `PackedBatch` (its records as bytes), then goes to the main thread.
  const packer = new BatchPacker();
  const sink: RowSink = {
    add: (rows) => packer.add(rows),
    flush: async () => {
      const batch = packer.take();
      return (await call(pass, { type: 'batch', batch }, transfers(batch))) as number[];
    },
  };
  try {
    const counts = await passInto({ ...options, db }, sink);
    port.postMessage({ type: 'done', pass, counts } satisfies FromPassThread);
  } catch (err) {
    port.postMessage({ type: 'failed', pass, error: threadError(err) } satisfies FromPassThread);
  } finally {
    active.delete(pass);
    aborted.delete(pass);
  }
}

port.on('message', (m: ToPassThread) => {
  if (m.type === 'run') {
    void run(m.pass, m.options);
    return;
  }
  if (m.type === 'abort') {
    if (active.has(m.pass)) aborted.add(m.pass);
    for (const [id, w] of waiting) {
      if (w.pass !== m.pass) continue;
      waiting.delete(id);
      w.reject(new Error('the pass has ended'));
    }
    return;
  }
  const w = waiting.get(m.call);
  if (!w) return;
  waiting.delete(m.call);
  if (m.type === 'answer') w.resolve(m.value);
  else w.reject(fromThreadError(m.error));
});
