/**
 * The messages between the main thread and the import's pass thread (./pass-thread.ts,
 * ./pass-worker.ts; 000 5 CSV import, 001 7.16): a pass to run, its calls back (a query of its
 * database, a batch of checked rows) and their answers, its end. Errors cross as `ThreadError`s, and
 * a batch as a `PackedBatch`.
 */
import { HttpError } from '../http-error';
import type { ImportRow, PassCounts, PassOptions } from './import-pass';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An error as it crosses between the threads (an HttpError keeps its answer). */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  code?: HttpError['code'];
  detail?: string;
  fieldErrors?: HttpError['fieldErrors'];
}

/** What the pass thread is sent: a pass to run, the answer to one of its calls, or the end of a pass (a batch failed). */
export type ToPassThread =
  | { type: 'run'; pass: number; options: PassOptions }
  | { type: 'answer'; pass: number; call: number; value: unknown }
  | { type: 'refusal'; pass: number; call: number; error: ThreadError }
  | { type: 'abort'; pass: number };

/** What the pass thread sends: a call of a pass (a query or statement of its database, a batch to hand on), or its end. */
export type FromPassThread =
  | { type: 'query'; pass: number; call: number; sql: string; params?: unknown[]; exec?: boolean }
  | { type: 'batch'; pass: number; call: number; batch: PackedBatch }
  | { type: 'done'; pass: number; counts: PassCounts }
  | { type: 'failed'; pass: number; error: ThreadError };

/** `err` as it can cross to the other thread. */
export function threadError(err: unknown): ThreadError {
  const e = err instanceof Error ? err : new Error(String(err));
  const out: ThreadError = { name: e.name, message: e.message, stack: e.stack };
  if (e instanceof HttpError) Object.assign(out, { code: e.code, detail: e.detail, fieldErrors: e.fieldErrors });
  return out;
}

/** The error `shape` describes, made again on this side: an HttpError with its answer, else an Error with the other thread's stack. */
export function fromThreadError(shape: ThreadError): Error {
  if (shape.name === 'HttpError' && shape.code) return new HttpError(shape.code, { detail: shape.detail, fieldErrors: shape.fieldErrors });
  const err = new Error(shape.message);
  err.name = shape.name;
  if (shape.stack) err.stack = shape.stack;
  return err;
}

/**
 * A batch of checked rows as it crosses: the rows without their records (`json` null), and the
 * records as UTF-8 in one buffer, `lengths[i]` bytes for row i (-1: none). While the batch is made
 * its records wait outside the thread's heap, and they cross without a copy (the buffer is moved);
 * the main thread makes them text again for the batch's statement (README 'Other commands': the
 * import bench's memory).
 */
export interface PackedBatch {
  rows: ImportRow[];
  lengths: Int32Array;
  bytes: ArrayBuffer;
}

/** Gathers checked rows into `PackedBatch`es (the pass thread's side). */
export class BatchPacker {
  private rows: ImportRow[] = [];
  private lengths: number[] = [];
  private bytes: Uint8Array;
  private used = 0;

  /** `capacity`: the bytes a batch starts with (it grows as needed; the next starts with what the last used). */
  constructor(private capacity = 256 * 1024) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Adds rows, in order. */
  add(rows: readonly ImportRow[]): void {
    for (const r of rows) {
      if (r.json === null) this.lengths.push(-1);
      else {
        // At most 3 bytes of UTF-8 per UTF-16 unit.
        if (this.used + r.json.length * 3 > this.bytes.length) {
          const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.used + r.json.length * 3));
          bigger.set(this.bytes.subarray(0, this.used));
          this.bytes = bigger;
        }
        const { written } = encoder.encodeInto(r.json, this.bytes.subarray(this.used));
        this.used += written;
        this.lengths.push(written);
      }
      this.rows.push({ ...r, json: null });
    }
  }

  /** The rows added since the last call, as one batch (its buffers to be moved, see `transfers`). */
  take(): PackedBatch {
    const batch: PackedBatch = { rows: this.rows, lengths: Int32Array.from(this.lengths), bytes: this.bytes.buffer as ArrayBuffer };
    this.capacity = Math.max(this.capacity, this.used + (this.used >> 2));
    this.rows = [];
    this.lengths = [];
    this.bytes = new Uint8Array(this.capacity);
    this.used = 0;
    return batch;
  }
}

/** The buffers of `batch` to move with it (postMessage's transfer list). */
export function transfers(batch: PackedBatch): ArrayBuffer[] {
  return [batch.bytes, batch.lengths.buffer as ArrayBuffer];
}

/** The rows of `batch` with their records again (the main thread's side). */
export function unpackBatch(batch: PackedBatch): ImportRow[] {
  const bytes = new Uint8Array(batch.bytes);
  let at = 0;
  batch.rows.forEach((r, i) => {
    const n = batch.lengths[i];
    if (n < 0) return;
    r.json = decoder.decode(bytes.subarray(at, at + n));
    at += n;
  });
  return batch.rows;
}
