/**
 * Deleting many rows of a list at once (docs/architecture.md 'Beyond the spec': Bulk selection): one delete call of the contract
 * per row (the same data provider call as a single delete, so the same `authorize` check and 209
 * rule), a few at a time; every failure is kept with its reason, nothing is silently lost.
 */
import type { BaseKey } from '@refinedev/core';
import type { DeleteAnswer } from '../providers/data-provider';

/** What a bulk delete did: the ids deleted, and per id not deleted the reason (server message). */
export interface BulkDeleteResult {
  deleted: BaseKey[];
  failed: Array<{ id: BaseKey; reason: string }>;
}

/** How many deletes run at once. */
export const BULK_DELETE_CONCURRENCY = 4;

/**
 * Runs `deleteOne` for every id, at most BULK_DELETE_CONCURRENCY at a time. A thrown error or a
 * kept row (209) counts as a failure with its message (`keptMessage` when the server gave none).
 */
export async function deleteAll(ids: readonly BaseKey[], deleteOne: (id: BaseKey) => Promise<DeleteAnswer | undefined>, keptMessage: string): Promise<BulkDeleteResult> {
  const result: BulkDeleteResult = { deleted: [], failed: [] };
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      try {
        const answer = await deleteOne(id);
        if (answer?.kept) result.failed.push({ id, reason: answer.detail || keptMessage });
        else result.deleted.push(id);
      } catch (e) {
        result.failed.push({ id, reason: (e as Error).message || keptMessage });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_DELETE_CONCURRENCY, ids.length) }, worker));
  return result;
}
