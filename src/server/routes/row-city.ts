/**
 * Calls whose path names no city of the row (`rowCity`, schemas/meta/resource.schema.json; 001 7.5
 * `PUT /advertiser/api/status/{id}/` and `PUT /advertiser/api/status/bulk/`, no city prefix): the
 * rows are found in whatever city they are stored, and the call is authorized in that city.
 */
import type { ResourceDef } from '../../shared/registry';
import type { Database } from '../db/database';
import { tableName } from '../db/resource-tables';
import { HttpError } from '../http-error';

/** Most ids of one call (as bulk updates). */
const MAX_IDS = 1000;

/**
 * The ids a call names: the row placeholder's value when the path has one, else the body's `ids`
 * (bulk updates). Values that are not ids are left out (the handler answers them).
 */
export function idsOfCall(id: string | undefined, body: unknown): number[] {
  const raw: unknown[] = id !== undefined ? [id] : Array.isArray((body as { ids?: unknown } | null)?.ids) ? (body as { ids: unknown[] }).ids : [];
  return raw
    .slice(0, MAX_IDS)
    .map((v) => (typeof v === 'number' || (typeof v === 'string' && /^\d{1,15}$/.test(v)) ? Number(v) : NaN))
    .filter((n) => Number.isSafeInteger(n) && n > 0);
}

/**
 * The city key the rows `ids` of `def` are stored under, or null when none of them exists.
 * Errors: 400 `validation` (`ids`) when they lie in more than one city: one call changes the rows of
 * one city, authorized there.
 */
export async function cityOfRows(db: Database, def: ResourceDef, ids: readonly number[]): Promise<string | null> {
  if (ids.length === 0) return null;
  const rows = await db.query<{ city: string }>(`SELECT DISTINCT city FROM ${tableName(def)} WHERE id = ANY($1::bigint[]) ORDER BY city`, [ids]);
  if (rows.length > 1) {
    throw new HttpError('validation', {
      fieldErrors: { ids: [{ key: 'validation.rules.ids_one_city', params: { field: 'ids' } }] },
    });
  }
  return rows[0]?.city ?? null;
}
