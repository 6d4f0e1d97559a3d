/**
 * The one CSV export of a list (docs/architecture.md 'Beyond the spec': CSV export; 001 7 export calls, e.g. 7.7
 * coupon-usage-conditions/export), behind both of its paths: a resource's declared `export` action
 * (routes/actions.ts) and the export of any list GET /{city}/api/exports/{resource}/
 * (routes/list-export.ts). Both answer alike:
 * - the rows of the list as its query string selects them (search, filters, date ranges, order;
 *   paging ignored), limited to the caller's own rows, at most MAX_EXPORT_ROWS;
 * - `columns=a,b` picks columns among the allowed ones (else the path's default columns);
 * - the header line holds the fields' titles and enum values their labels, in the request's
 *   language (Accept-Language, Japanese by default); cells formula-escaped (../csv.ts);
 * - a reference column (`x-ref`) is followed by the referenced rows' names (their `titleField`;
 *   header `<title>（名称）`) where the export says how the caller reads that resource (`references`);
 *   a row the caller may not read, or a deleted one, leaves the name empty;
 * - `encoding=utf-8` (default, with a BOM) or `shift_jis`; another encoding is a 400 `validation`;
 * - 200 text/csv, `Content-Disposition: attachment; filename="<resource>.csv"`, streamed: the rows
 *   are read in batches (repositories/record-batches.ts) as the client takes the bytes.
 * The caller has been authorized (`authorize`) by the route before.
 */
import type { FastifyReply } from 'fastify';
import { firstValue, isRefField, MAX_IDS } from '../../shared/list-query';
import type { ResourceDef } from '../../shared/registry';
import { CSV_ENCODINGS, csvContentType, csvStream, type CsvEncoding } from '../csv';
import type { Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { recordBatches } from '../repositories/record-batches';
import { listWhere, readListQuery, type Match, type ReferenceAccess } from '../repositories/record-query';
import { translatorFor, type Translate } from '../translator';

/** The most rows an export answers. */
export const MAX_EXPORT_ROWS = 100_000;

/**
 * The columns of an export: the asked ones (`columns=a,b`, in that order, each once) that are among
 * `allowed`, else `defaults`.
 */
export function exportColumns(asked: string | undefined, defaults: readonly string[], allowed: readonly string[] = defaults): string[] {
  const wanted = (asked ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((f) => allowed.includes(f));
  return wanted.length ? [...new Set(wanted)] : [...defaults];
}

/** A cell of an export: an enum value as its translated label (also inside lists), else the value. */
export function exportCell(def: ResourceDef, field: string, value: unknown, t: Translate): unknown {
  const prop = def.schema.properties[field];
  const items = prop?.items as { enum?: unknown[]; 'x-enum-labels'?: string[] } | undefined;
  const values = prop?.enum ?? items?.enum;
  const labels = prop?.['x-enum-labels'] ?? items?.['x-enum-labels'];
  if (!values || !labels) return value;
  const label = (v: unknown) => {
    const i = values.findIndex((x) => String(x) === String(v));
    return i >= 0 && labels[i] ? t(labels[i]) : v;
  };
  return Array.isArray(value) ? value.map(label).join(', ') : label(value);
}

/** The header line of an export: each column's title in the language of `t`. */
export function exportHeader(def: ResourceDef, columns: readonly string[], t: Translate): string[] {
  return columns.map((f) => t(def.schema.properties[f]?.title ?? f));
}

/** The `encoding` of an export query (default utf-8, any case). Errors: 400 `validation` for another one. */
export function exportEncoding(query: Readonly<Record<string, unknown>>): CsvEncoding {
  const encoding = (firstValue(query.encoding) || 'utf-8').toLowerCase();
  if (!(CSV_ENCODINGS as readonly string[]).includes(encoding)) {
    throw new HttpError('validation', { fieldErrors: { encoding: [{ key: 'validation.generic.enum', params: { field: 'encoding', allowedValues: CSV_ENCODINGS } }] } });
  }
  return encoding as CsvEncoding;
}

/** What one export answers. */
export interface CsvExport {
  db: Queryable;
  def: ResourceDef;
  /** The storage city key of the rows (`storageCity`). */
  city: string;
  /** The request's query string (list query, `columns`, `encoding`). */
  query: Record<string, unknown>;
  /** Fixed conditions: the call's `where`/`exclude`, the caller's own rows. */
  match: Match;
  /** Columns when the query asks for none. */
  columns: readonly string[];
  /** Columns the query may ask for (default `columns`). */
  allowed?: readonly string[];
  /** The request's Accept-Language header. */
  language: string | string[] | undefined;
  /**
   * How the caller reads a referenced resource (its storage city key and its fixed conditions with
   * the caller's own rows), or null when it may not: the names of reference columns. Without it,
   * reference columns hold ids only.
   */
  references?: (resource: string) => ReferenceAccess | null;
}

/** A column of an export: a field, or the names of the rows a reference field names. */
type ExportColumn = { field: string; names?: ReferenceAccess };

/** The names (`titleField`) of rows `ids` of `ref` the caller reads (`how`), by id. */
async function namesOf(db: Queryable, ref: ResourceDef, ids: readonly string[], how: ReferenceAccess): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i += MAX_IDS) {
    const chunk = ids.slice(i, i + MAX_IDS);
    const params: unknown[] = [how.city];
    const where = listWhere(ref, readListQuery(ref, { ids: chunk.join(',') }), how.match, params);
    const rows = await db.query<{ id: number | string; data: Record<string, unknown> }>(`SELECT id, data FROM ${tableName(ref)} WHERE ${where.sql}`, params);
    for (const row of rows) {
      const name = ref.titleField ? row.data[ref.titleField] : row.id;
      if (name !== undefined && name !== null && name !== '') out.set(String(row.id), String(name));
    }
  }
  return out;
}

/**
 * Answers an export on `reply` (see the top of this file) and answers the reply (return it from
 * the handler; awaiting it waits for the last byte). The query is checked and the first batch read
 * before anything is sent, so a bad query is a 400 and a failing database a 500 as usual.
 * Errors: 400 `validation` (encoding, filter values).
 */
export async function sendCsvExport(reply: FastifyReply, x: CsvExport): Promise<FastifyReply> {
  const encoding = exportEncoding(x.query);
  const t = translatorFor(x.language);
  // Field permissions: a column the caller may not read is never exported (`match.unreadable`).
  const hidden = new Set(x.match.unreadable ?? []);
  const fields = exportColumns(firstValue(x.query.columns), x.columns, x.allowed ?? x.columns).filter((f) => !hidden.has(f));
  const resources = x.def.schema.properties;
  const columns: ExportColumn[] = fields.flatMap((field) => {
    const ref = isRefField(x.def, field) && x.references ? x.references(resources[field]['x-ref']!) : null;
    return ref ? [{ field }, { field, names: ref }] : [{ field }];
  });
  const batches = recordBatches(x.db, x.def, x.city, x.query, x.match, { maxRows: MAX_EXPORT_ROWS });
  let batch = await batches.next();
  async function* records(): AsyncGenerator<unknown[]> {
    try {
      while (!batch.done) {
        // The names of the batch's references: one read per referenced column and batch.
        const names = new Map<ExportColumn, Map<string, string>>();
        for (const c of columns) {
          if (!c.names) continue;
          const ids = [...new Set(batch.value.flatMap((row) => (Array.isArray(row[c.field]) ? (row[c.field] as unknown[]) : [row[c.field]]).filter((v) => v !== null && v !== undefined && v !== '').map(String)))];
          names.set(c, await namesOf(x.db, c.names.def, ids.filter((id) => /^\d{1,15}$/.test(id)), c.names));
        }
        for (const row of batch.value) {
          yield columns.map((c) => {
            const value = row[c.field];
            if (!c.names) return exportCell(x.def, c.field, value, t);
            const found = names.get(c)!;
            return (Array.isArray(value) ? value : [value]).flatMap((v) => (found.has(String(v)) ? [found.get(String(v))] : [])).join(', ');
          });
        }
        batch = await batches.next();
      }
    } finally {
      await batches.return(undefined);
    }
  }
  return reply
    .code(200)
    .header('content-type', csvContentType(encoding))
    .header('content-disposition', `attachment; filename="${x.def.name}.csv"`)
    .header('x-content-type-options', 'nosniff')
    .send(
      csvStream(
        columns.map((c) => {
          const title = exportHeader(x.def, [c.field], t)[0];
          return c.names ? t('lists.rows.refName', { title }) : title;
        }),
        records(),
        encoding,
      ),
    );
}
