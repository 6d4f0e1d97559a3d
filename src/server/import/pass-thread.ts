/**
 * The import's pass (./import-pass.ts; 000 5 CSV import, 001 7.16) in a worker thread
 * (node:worker_threads), for PGlite: its database works on the server's one thread, so a pass there
 * would decode, parse and check the rows in turn with the writes of the batches; in the thread, the
 * next batch is read and checked while the one before is being written (docs/architecture.md
 * 'Jobs'), and other requests are not held by the check. The thread only computes: every query of
 * the pass (lookups, stored rows, uploaded files) and every batch it hands on come back here and run
 * on the caller's database and `onBatch`, in the order the pass asks for them; a batch that fails
 * (an error, a cancel at a checkpoint) ends the pass at once with that very error.
 *
 * One thread serves every pass of the process (several at once): started at the first pass, it ends
 * after IDLE_MS without one. Its heap is its own and kept small (see `resourceLimits` below), and a
 * batch crosses as bytes (./pass-messages.ts `PackedBatch`), so the server's memory stays within
 * budget (README 'Other commands': the import bench).
 */
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ResourceDef } from '../../shared/registry';
import type { Database } from '../db/database';
import { runPass, type Pass, type PassCounts } from './import-pass';
import { lookupTarget } from './lookups';
import { fromThreadError, threadError, unpackBatch, type FromPassThread, type ToPassThread } from './pass-messages';

/** How long the thread waits for another pass before it ends, ms (a check and the import after it share one thread). */
export const IDLE_MS = 5 * 60_000;

// The thread's entry, as CommonJS code. Node hands no loader hooks (tsx's) to worker threads, so
// under tsx the thread loads ./pass-worker.ts through tsx's require hook (`tsx/cjs/api`), which
// works within the thread (an ESM hook would start a second loader thread and its memory).
const BOOT = `
const { workerData } = require('node:worker_threads');
if (workerData.tsx) {
  require(workerData.tsx).register();
  require(workerData.entry);
} else {
  import(require('node:url').pathToFileURL(workerData.entry).href).catch((err) => setImmediate(() => { throw err; }));
}
`;

interface Running {
  pass: Pass;
  resolve(counts: PassCounts): void;
  reject(err: unknown): void;
  /** Settled here already (a batch failed): the thread's further calls are refused. */
  closed: boolean;
  /** The first error of a query run for it here, thrown as it is when the pass fails. */
  error: unknown;
}

class PassThread {
  private worker: Worker | null = null;
  private readonly running = new Map<number, Running>();
  private next = 1;
  private idle: NodeJS.Timeout | null = null;

  run(pass: Pass): Promise<PassCounts> {
    const worker = this.start();
    const id = this.next++;
    const { db: _db, onBatch: _onBatch, ...options } = pass;
    options.resources = passResources(pass);
    return new Promise<PassCounts>((resolve, reject) => {
      this.running.set(id, { pass, resolve, reject, closed: false, error: null });
      worker.postMessage({ type: 'run', pass: id, options } satisfies ToPassThread);
    });
  }

  private start(): Worker {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.worker) {
      this.worker.ref();
      return this.worker;
    }
    const self = fileURLToPath(import.meta.url);
    const typescript = extname(self) === '.ts';
    const worker = new Worker(BOOT, {
      eval: true,
      workerData: {
        entry: join(dirname(self), `pass-worker${extname(self)}`),
        tsx: typescript ? createRequire(self).resolve('tsx/cjs/api') : null,
      },
      // The main thread's flags (tsx's --import among them) are not the thread's.
      execArgv: [],
      // A small young generation (the rows are short-lived) and a bounded old one: V8 then grows the
      // thread's heap as a small heap's, collecting it often; the live data is about 20 MB, and a
      // file of one 10 MB cell still fits.
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 },
    });
    worker.on('message', (m: FromPassThread) => void this.receive(worker, m));
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', (code) => this.lost(worker, new Error(`the import pass thread ended (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /** The thread died: every pass it ran fails; the next pass starts another. */
  private lost(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const r of this.running.values()) if (!r.closed) r.reject(err);
    this.running.clear();
  }

  private async receive(worker: Worker, m: FromPassThread): Promise<void> {
    const r = this.running.get(m.pass);
    if (!r) return;
    if (m.type === 'done' || m.type === 'failed') {
      this.running.delete(m.pass);
      if (!r.closed) {
        if (m.type === 'done') r.resolve(m.counts);
        else r.reject(r.error ?? fromThreadError(m.error));
      }
      if (this.running.size === 0 && this.worker === worker) this.rest(worker);
      return;
    }
    const reply = (message: ToPassThread) => {
      if (this.worker === worker) worker.postMessage(message);
    };
    if (r.closed) {
      reply({ type: 'refusal', pass: m.pass, call: m.call, error: threadError(new Error('the pass has ended')) });
      return;
    }
    try {
      let value: unknown;
      if (m.type === 'query') value = m.exec ? await r.pass.db.exec(m.sql) : await r.pass.db.query(m.sql, m.params);
      else value = await r.pass.onBatch(unpackBatch(m.batch));
      reply({ type: 'answer', pass: m.pass, call: m.call, value });
    } catch (err) {
      if (m.type === 'batch' && !r.closed) {
        // No batch after a failed one: the pass ends here with this error, the thread stops it.
        r.closed = true;
        r.reject(err);
        reply({ type: 'abort', pass: m.pass });
      } else r.error ??= err;
      reply({ type: 'refusal', pass: m.pass, call: m.call, error: threadError(err) });
    }
  }

  /** No pass left: the thread no longer keeps the process alive, and ends after IDLE_MS. */
  private rest(worker: Worker): void {
    worker.unref();
    this.idle = setTimeout(() => {
      if (this.worker !== worker || this.running.size > 0) return;
      this.worker = null;
      void worker.terminate();
    }, IDLE_MS);
    this.idle.unref();
  }
}

const thread = new PassThread();

/** The resources a pass reads (its own and those its lookup columns name), the only ones sent to the thread. */
function passResources(pass: Pass): Map<string, ResourceDef> {
  const out = new Map([[pass.def.name, pass.def]]);
  for (const column of pass.declaration.columns) {
    if (!column.lookup || column.lookup === 'advertiser') continue;
    const target = lookupTarget(pass.def, column.field, pass.resources);
    out.set(target.name, target);
  }
  return out;
}

/**
 * Runs `pass` (./import-pass.ts `runPass`) in the pass thread (see the top of this file): the same
 * counts, batches and errors as `runPass` on this thread; HttpErrors keep their code, message and
 * field errors, and an error of `pass.db` or `pass.onBatch` is thrown as it is. Errors also: the
 * thread failing to start or dying (every pass it ran fails; the next one starts it again).
 */
export function runPassInThread(pass: Pass): Promise<PassCounts> {
  return thread.run(pass);
}

/**
 * Runs an import's pass (the check or the import, 000 5 CSV import; 001 7.16) on `db` where it is
 * best run: in the pass thread on PGlite, whose database works on this thread (see the top of this
 * file); on this thread on PostgreSQL, whose writes run in its own process while the pass reads on
 * (the thread's heap would only add to the server's memory). Resolves to the counts; errors as
 * `runPass`'s.
 */
export function runImportPass(db: Database, pass: Omit<Pass, 'db'>): Promise<PassCounts> {
  return db.kind === 'pglite' ? runPassInThread({ ...pass, db }) : runPass({ ...pass, db });
}
