/**
 * Revisions and the recycle bin, what both sides share (docs/architecture.md 'Revisions and the
 * recycle bin'): which resources keep revisions, the operations a revision records, the page size and
 * the shapes the revision routes answer (src/server/revisions/revision-routes.ts), read by the
 * console's 履歴 tab and ごみ箱 page (src/console/resources/revision-history.tsx, recycle-bin.tsx).
 */
import type { ResourceDef } from './registry';

/** The operations a revision records (every kind of write of a resource row). */
export const REVISION_OPERATIONS = ['create', 'update', 'delete', 'action', 'import', 'restore', 'undelete', 'migration'] as const;
export type RevisionOperation = (typeof REVISION_OPERATIONS)[number];

/** Revisions and deleted rows per page. */
export const REVISION_PAGE = 20;

/**
 * Whether the rows of `def` keep revisions: those of a resource some role may create, update or
 * delete. The server's own logs (the audit log, the import logs, the mail outbox, clicks, purchases)
 * are written by the server alone and keep none.
 */
export function keepsRevisions(def: Pick<ResourceDef, 'permissions'>): boolean {
  const p = def.permissions;
  return !!(p.create?.length || p.update?.length || p.delete?.length);
}

/** Who made a revision, as they were then (null fields: the server, or a user since removed). */
export interface RevisionAuthor {
  id: number | null;
  username: string | null;
  name: string | null;
}

/** One changed field of a revision: its value before and after (null: absent). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** One revision as the API answers it. */
export interface Revision {
  revision: number;
  /** ISO time of the write's transaction. */
  at: string;
  by: RevisionAuthor;
  operation: RevisionOperation;
  changes: FieldChange[];
}

/** One row of the recycle bin: the row as it was when deleted, who deleted it and when. */
export interface DeletedRow {
  id: number;
  /** The revision of the delete. */
  revision: number;
  deleted_at: string;
  deleted_by: RevisionAuthor;
  record: Record<string, unknown>;
}
