/**
 * Saved views of lists (docs/architecture.md 'Beyond the spec': Saved views): the columns shown and their order, the filters, the
 * sort and the page size of one list, named, kept per user, city and resource in `saved_views`
 * (migration 0003). A user reads and writes only their own views; one view per list may be the
 * default; `used_at` tells the last one chosen (the list restores the default, else the last used).
 */
import type { Queryable } from '../db/database';
import { HttpError } from '../http-error';
import type { ListViewState, SavedView } from '../../shared/saved-views';

export type { ListViewState, SavedView };

/** Who and where: the owner of the views, the city and the list (resource name). */
export interface ViewScope {
  userId: number;
  city: string;
  resource: string;
}

interface Row {
  id: string | number;
  resource: string;
  name: string;
  state: ListViewState | string;
  is_default: boolean;
  used_at: Date | string;
  created_at: Date | string;
}

const COLUMNS = 'id, resource, name, state, is_default, used_at, created_at';

function toView(r: Row): SavedView {
  const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());
  return {
    id: Number(r.id),
    resource: r.resource,
    name: r.name,
    state: typeof r.state === 'string' ? (JSON.parse(r.state) as ListViewState) : r.state,
    is_default: r.is_default,
    used_at: iso(r.used_at),
    created_at: iso(r.created_at),
  };
}

/** The views of a list, the default first, then the most recently used. */
export async function listViews(db: Queryable, scope: ViewScope): Promise<SavedView[]> {
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM saved_views WHERE user_id = $1 AND city = $2 AND resource = $3 ORDER BY is_default DESC, used_at DESC, id DESC`,
    [scope.userId, scope.city, scope.resource],
  );
  return rows.map(toView);
}

/** One view of the user in the city, or 404 `not_found` (also for another user's view). */
export async function getView(db: Queryable, userId: number, city: string, id: number): Promise<SavedView> {
  const rows = await db.query<Row>(`SELECT ${COLUMNS} FROM saved_views WHERE id = $1 AND user_id = $2 AND city = $3`, [id, userId, city]);
  if (!rows[0]) throw new HttpError('not_found');
  return toView(rows[0]);
}

function duplicateName(): HttpError {
  return new HttpError('validation', { fieldErrors: { name: [{ key: 'lists.views.duplicate', params: {} }] } });
}

async function clearDefault(db: Queryable, scope: ViewScope, except: number): Promise<void> {
  await db.query('UPDATE saved_views SET is_default = false WHERE user_id = $1 AND city = $2 AND resource = $3 AND id <> $4', [
    scope.userId,
    scope.city,
    scope.resource,
    except,
  ]);
}

/** Stores a new view. Errors: 400 `validation` (name taken in this list). */
export async function createView(db: Queryable, scope: ViewScope, input: { name: string; state: ListViewState; is_default: boolean }): Promise<SavedView> {
  const taken = await db.query('SELECT 1 FROM saved_views WHERE user_id = $1 AND city = $2 AND resource = $3 AND name = $4', [scope.userId, scope.city, scope.resource, input.name]);
  if (taken.length) throw duplicateName();
  const rows = await db.query<Row>(
    `INSERT INTO saved_views (user_id, city, resource, name, state, is_default) VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING ${COLUMNS}`,
    [scope.userId, scope.city, scope.resource, input.name, JSON.stringify(input.state), input.is_default],
  );
  const view = toView(rows[0]);
  if (view.is_default) await clearDefault(db, scope, view.id);
  return view;
}

/**
 * Changes a view: its name, state, default flag, or `used` (marks it the last chosen). Errors: 404
 * `not_found` (not the user's), 400 `validation` (name taken in this list).
 */
export async function updateView(
  db: Queryable,
  userId: number,
  city: string,
  id: number,
  input: { name?: string; state?: ListViewState; is_default?: boolean; used?: boolean },
): Promise<SavedView> {
  const current = await getView(db, userId, city, id);
  const scope = { userId, city, resource: current.resource };
  if (input.name !== undefined && input.name !== current.name) {
    const taken = await db.query('SELECT 1 FROM saved_views WHERE user_id = $1 AND city = $2 AND resource = $3 AND name = $4', [userId, city, current.resource, input.name]);
    if (taken.length) throw duplicateName();
  }
  const rows = await db.query<Row>(
    `UPDATE saved_views SET name = $2, state = $3::jsonb, is_default = $4, used_at = CASE WHEN $5 THEN now() ELSE used_at END
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, input.name ?? current.name, JSON.stringify(input.state ?? current.state), input.is_default ?? current.is_default, input.used === true],
  );
  const view = toView(rows[0]);
  if (input.is_default === true) await clearDefault(db, scope, id);
  return view;
}

/** Removes a view. Errors: 404 `not_found` (not the user's). */
export async function deleteView(db: Queryable, userId: number, city: string, id: number): Promise<void> {
  const rows = await db.query('DELETE FROM saved_views WHERE id = $1 AND user_id = $2 AND city = $3 RETURNING id', [id, userId, city]);
  if (!rows[0]) throw new HttpError('not_found');
}
