/**
 * Client of the revision and recycle-bin routes (src/server/revisions/revision-routes.ts;
 * docs/architecture.md 'Revisions and the recycle bin'). `resource` is a registry name, `city` the
 * city of the path. Errors: ApiRequestError (../providers/api-error.ts) with the server's status:
 * 400 a restored value the schema refuses now (naming the field), 403, 404, 409 the row changed since
 * or a unique value is taken.
 */
import type { DeletedRow, Revision } from '@/shared/revisions';
import { request } from '../providers/http';

/** A page of answers: `content` and the count of all of them. */
export interface RevisionPage<T> {
  content: T[];
  total_length: number;
}

const base = (city: string, resource: string) => `/${encodeURIComponent(city)}/api/revisions/${encodeURIComponent(resource)}/`;

/** Page `page` (from 1; 20 a page) of the revisions of row `id`, newest first. */
export function fetchRevisions(city: string, resource: string, id: string | number, page = 1): Promise<RevisionPage<Revision>> {
  return request<RevisionPage<Revision>>(`${base(city, resource)}${encodeURIComponent(String(id))}/`, { query: { page } });
}

/** Writes row `id` back as it was after `revision`; `version`: the row's version the user saw. Answers the row. */
export function restoreRevision(city: string, resource: string, id: string | number, revision: number, version: number): Promise<Record<string, unknown>> {
  return request(`${base(city, resource)}${encodeURIComponent(String(id))}/${revision}/restore/`, { method: 'POST', body: { version } });
}

/** Page `page` of the recycle bin of `resource`: deleted rows, newest delete first. */
export function fetchDeleted(city: string, resource: string, page = 1): Promise<RevisionPage<DeletedRow>> {
  return request<RevisionPage<DeletedRow>>(`${base(city, resource)}deleted/`, { query: { page } });
}

/** Brings deleted row `id` back. Answers the row. */
export function undeleteRow(city: string, resource: string, id: number): Promise<Record<string, unknown>> {
  return request(`${base(city, resource)}${id}/undelete/`, { method: 'POST', body: {} });
}
