/**
 * Answers kept until the data changes, for reads that many callers repeat between writes (the chat's
 * conversation list, which every open console of a city reads again after each message;
 * docs/performance.md 'Chat'). On PGlite, where this process is the one writer, an answer read while
 * `Database.writeVersion` was v is served again while it is v: any statement or transaction that
 * may have changed data ends that. On PostgreSQL (no write version: other processes write too)
 * every call reads.
 */
import type { Database } from './database';

export class ReadCache<T> {
  private version = -1;
  private readonly entries = new Map<string, T>();

  /** `max`: answers kept at most (the oldest goes first). */
  constructor(
    private readonly db: Pick<Database, 'writeVersion'>,
    private readonly max = 500,
  ) {}

  /**
   * The answer of `key` read since the last write, else `read()`'s (kept when no write ended while
   * it ran). The answer is shared: callers must not change it. Errors: `read`'s (nothing is kept).
   */
  async get(key: string, read: () => Promise<T>): Promise<T> {
    const version = this.db.writeVersion?.();
    if (version === undefined) return read();
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const kept = this.entries.get(key);
    if (kept !== undefined) return kept;
    const value = await read();
    if (this.db.writeVersion?.() === version && this.version === version) {
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, value);
    }
    return value;
  }
}
