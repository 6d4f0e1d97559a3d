/**
 * What a writing transaction tells the revision triggers (./revision-migrations.ts; docs/architecture.md
 * 'Revisions and the recycle bin'): its operation and who makes it, as transaction-local settings
 * read by `keep_revisions()` after each statement on a resource table. A transaction that never
 * calls `keepRevisions` keeps no revision (the server's own bookkeeping).
 */
import type { Queryable } from '../db/database';
import { REVISION_OPERATIONS, type RevisionOperation } from '../../shared/revisions';

export { REVISION_OPERATIONS, type RevisionOperation };

/**
 * The operation of a repository write from its audit action: `create`, `update`, `delete`,
 * `restore`, `undelete` and `import` are themselves, anything else (an action's name, a
 * capability's `create:…`) is `action`.
 */
export function operationOf(auditAction: string): RevisionOperation {
  return (REVISION_OPERATIONS as readonly string[]).includes(auditAction) ? (auditAction as RevisionOperation) : 'action';
}

/**
 * Makes the writes of the rest of transaction `tx` keep no revision: the server's own bookkeeping in a
 * transaction that also writes rows, such as a CSV import's progress on its history row after the
 * batch's rows (docs/architecture.md 'Revisions and the recycle bin': the server's own writes keep none).
 */
export async function keepNoRevisions(tx: Queryable): Promise<void> {
  await tx.query("SELECT set_config('app.revision_op', '', true)");
}

/**
 * Makes the writes of the rest of transaction `tx` keep revisions as `operation` by user
 * `userId` (null: the server). Call it inside the transaction, before its writes; a later call
 * replaces the operation for the statements after it.
 */
export async function keepRevisions(tx: Queryable, userId: number | null, operation: RevisionOperation): Promise<void> {
  await tx.query("SELECT set_config('app.revision_op', $1, true), set_config('app.revision_actor', $2, true)", [operation, userId === null ? '' : String(userId)]);
}
