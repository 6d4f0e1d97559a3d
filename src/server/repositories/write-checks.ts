/**
 * Checks of a write that need the database (schemas/meta/resource.schema.json field extensions):
 * - `x-ref: "<resource>"`: the value (an id, or a list of ids) names rows of that resource in the
 *   same city (global resources: their shared rows); else the field error
 *   `validation.generic.x-ref` (or the field's `x-messages["x-ref"]`);
 * - `x-ref-user: "username" | "id"`: the value (or each of a list) names a user of the hand-written
 *   users table assigned to the record's city (an Administrator counts for every city), by username or
 *   id (000 5: voucher owner must exist); else `validation.generic.x-ref` (or the field's
 *   `x-messages["x-ref-user"]`);
 * - `x-upload: {kind, maxItems}`: the value (a URL, or a list of URLs) names files uploaded through
 *   POST /{city}/api/files/ of the right kind (000 5 Files: documents and flyers PDF; images jpg,
 *   png, gif), at most `maxItems` of them (flyers at most 2); else `validation.generic.x-upload`, or
 *   `validation.generic.maxItems` (or the field's `x-messages.maxItems`) for too many.
 * - own-row limits (`owner`, 000 6): the record's owner field must hold only the caller's values
 *   (an Advertiser's shops, a President's or Teacher's school…), or with `through` refer to a row whose
 *   owner field does (a job time of the shop's recruitment); else 403 `forbidden`. The id field is
 *   not checked on a create (the row has no id yet).
 * Values the stored row already had are not checked again (a deleted reference or a demo URL does not
 * block editing other fields). Messages carry a Japanese `defaultValue` until the locales hold the keys.
 */
import type { OwnedRows } from '../../shared/ability';
import type { ResourceDef } from '../../shared/registry';
import { messageKey, type FieldErrors } from '../../shared/validation';
import type { Queryable } from '../db/database';
import { storageCity, tableName, textExpr } from '../db/resource-tables';
import { fileNameOfUrl } from '../files/file-names';
import { HttpError } from '../http-error';

const ACCEPTED: Record<string, { kinds: string[]; label: string }> = {
  image: { kinds: ['image'], label: 'JPEG, PNG, GIF' },
  pdf: { kinds: ['pdf'], label: 'PDF' },
  'image-or-pdf': { kinds: ['image', 'pdf'], label: 'JPEG, PNG, GIF, PDF' },
};

/** Default texts of the keys this module uses, shown while the locales do not have them. */
export const DEFAULT_MESSAGES = {
  'validation.generic.x-ref': '指定された参照先が存在しません。',
  'validation.generic.x-ref-user': '指定されたユーザーが存在しません。',
  'validation.generic.x-upload': 'アップロードしたファイル（{{accepted}}）を指定してください。',
  'validation.generic.maxItems': '{{limit}}件以内で指定してください。',
} as const;

function values(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

function add(errors: FieldErrors, def: ResourceDef, field: string, keyword: string, params: Record<string, unknown>): void {
  const key = messageKey(def.schema, field, keyword);
  const defaultValue = (DEFAULT_MESSAGES as Record<string, string>)[key];
  (errors[field] ??= []).push({ key, params: { field, ...params, ...(defaultValue ? { defaultValue } : {}) } });
}

/**
 * The first of `values` that names no user of `city` (a city name; `*` for global rows: any user) by
 * `by` (username or id), or undefined when all do.
 */
async function missingUsers(tx: Queryable, by: 'username' | 'id', city: string, list: unknown[]): Promise<unknown> {
  const keys = list.map((v) => (by === 'id' ? (typeof v === 'number' || (typeof v === 'string' && /^\d{1,9}$/.test(v)) ? Number(v) : null) : typeof v === 'string' ? v : null));
  const wanted = keys.filter((k): k is string | number => k !== null);
  const found = new Set<string>();
  if (wanted.length > 0) {
    const column = by === 'id' ? 'u.id' : 'u.username';
    const list = by === 'id' ? '$1::int[]' : '$1::text[]';
    const rows = await tx.query<{ key: string | number }>(
      `SELECT ${column} AS key FROM users u WHERE ${column} = ANY(${list})
         AND ($2 = '*' OR u.permission = 'Administrator' OR EXISTS (SELECT 1 FROM cities c WHERE c.name = $2 AND c.id = ANY(u.assign_city)))`,
      [wanted, city],
    );
    for (const r of rows) found.add(String(r.key));
  }
  return list.find((_v, i) => keys[i] === null || !found.has(String(keys[i])));
}

/**
 * Checks the `x-ref`, `x-ref-user` and `x-upload` fields of `data`, a record about to be stored in `city` (a storage
 * key). `previous` is the stored data of an update. `resources` resolves `x-ref` names.
 * Errors: 400 `validation` with the field errors.
 */
export async function checkWrite(
  tx: Queryable,
  def: ResourceDef,
  city: string,
  data: Record<string, unknown>,
  previous: Record<string, unknown> | null,
  resources: ReadonlyMap<string, ResourceDef>,
  owner: readonly OwnedRows[] = [],
): Promise<void> {
  checkOwner(def, data, owner.filter((o) => !o.through));
  for (const { field, values: mine, through } of owner) {
    const target = through ? resources.get(through.resource) : undefined;
    if (!through || !target) continue;
    const ref = data[field];
    const found =
      (typeof ref === 'number' || typeof ref === 'string') && /^\d{1,15}$/.test(String(ref))
        ? await tx.query(`SELECT 1 FROM ${tableName(target)} WHERE id = $1 AND ${textExpr(target, through.field)} = ANY($2::text[])`, [Number(ref), mine.map(String)])
        : [];
    if (found.length === 0) throw new HttpError('forbidden');
  }
  const errors: FieldErrors = {};
  const uploads: Array<{ field: string; name: string | null; kinds: string[]; accepted: string }> = [];
  for (const [field, prop] of Object.entries(def.schema.properties)) {
    const ref = prop['x-ref'];
    const upload = prop['x-upload'];
    const userRef = prop['x-ref-user'];
    if (!ref && !upload && !userRef) continue;
    const before = new Set(values(previous?.[field]).map((v) => JSON.stringify(v)));
    const list = values(data[field]);
    const fresh = list.filter((v) => !before.has(JSON.stringify(v)));
    if (userRef && fresh.length > 0) {
      const missing = await missingUsers(tx, userRef, storageCity(def, city), fresh);
      if (missing !== undefined) add(errors, def, field, 'x-ref-user', { value: missing });
    }
    if (ref && fresh.length > 0) {
      const target = resources.get(ref);
      const ids = fresh.map((v) => (typeof v === 'number' || (typeof v === 'string' && /^\d{1,15}$/.test(v)) ? Number(v) : NaN));
      const valid = ids.filter((n) => Number.isSafeInteger(n) && n > 0);
      let found = new Set<number>();
      if (target && valid.length > 0) {
        const rows = await tx.query<{ id: number }>(`SELECT id FROM ${tableName(target)} WHERE city = $1 AND id = ANY($2::bigint[])`, [
          storageCity(target, city),
          valid,
        ]);
        found = new Set(rows.map((r) => Number(r.id)));
      }
      const missing = ids.filter((n) => !found.has(n));
      if (missing.length > 0) add(errors, def, field, 'x-ref', { ref, value: fresh[ids.indexOf(missing[0])] });
    }
    if (upload) {
      const accepted = ACCEPTED[upload.kind];
      if (upload.maxItems !== undefined && list.length > upload.maxItems) {
        add(errors, def, field, 'maxItems', { limit: upload.maxItems, max: upload.maxItems });
        continue;
      }
      for (const v of fresh) uploads.push({ field, name: fileNameOfUrl(v), kinds: accepted.kinds, accepted: accepted.label });
    }
  }
  const names = uploads.map((u) => u.name).filter((n): n is string => n !== null);
  const kinds = new Map<string, string>();
  if (names.length > 0) {
    for (const r of await tx.query<{ name: string; kind: string }>('SELECT name, kind FROM files WHERE name = ANY($1::text[])', [names])) kinds.set(r.name, r.kind);
  }
  for (const u of uploads) {
    const kind = u.name ? kinds.get(u.name) : undefined;
    if (kind && u.kinds.includes(kind)) continue;
    if (!errors[u.field]?.length) add(errors, def, u.field, 'x-upload', { accepted: u.accepted });
  }
  if (Object.keys(errors).length > 0) throw new HttpError('validation', { fieldErrors: errors });
}

/**
 * Own-row limits of a write (000 6): every value of each limited field of `data` must be one of the
 * caller's values; a record without the field names no owner and is refused too.
 * Errors: 403 `forbidden`.
 */
export function checkOwner(def: ResourceDef, data: Record<string, unknown>, owner: readonly OwnedRows[]): void {
  for (const { field, values: mine } of owner) {
    if (field === def.idField) continue;
    const allowed = new Set(mine.map(String));
    const list = values(data[field]);
    if (list.length === 0 || !list.every((v) => allowed.has(String(v)))) throw new HttpError('forbidden');
  }
}
