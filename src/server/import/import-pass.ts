/**
 * One pass over the rows of an import's file (000 5 CSV import; 001 7.16), the same for the check
 * (dry run) and the import: the rows are read streamed (./csv-rows.ts), checked (./row-checks.ts) and
 * handed on in batches of `batchRows`; per CHECK_ROWS rows one query reads the stored rows their
 * `ID`s name and one the uploaded files their image URLs name. The import writes a batch while the
 * next is read and checked; a row that names a row of the same unwritten batch (a parent mall just
 * above it) or updates a row the batch already changes closes the batch first. Only the batch being
 * written and the one being made are held in memory. On PGlite the pass runs in a worker thread
 * (./pass-thread.ts), its queries and batches answered by the main thread.
 */
import type { CsvImportEncoding, ImportDeclaration, ImportProblem } from '../../shared/csv-import';
import type { ResourceDef } from '../../shared/registry';
import { messageKey } from '../../shared/validation';
import type { Queryable } from '../db/database';
import { tableName, textExpr } from '../db/resource-tables';
import { fileNameOfUrl } from '../files/file-names';
import { translatorFor } from '../translator';
import { countRecords, csvRows, readHeader, type Header } from './csv-rows';
import { decodedText, refusal, type Language } from './import-file';
import { loadLookups } from './lookups';
import { PENDING_ID, RowChecks, type CheckedRow, type PreparedRow } from './row-checks';

/** Rows per batch: one transaction of the import each (PGlite: other requests run between two). */
export const IMPORT_BATCH_ROWS = 1000;
/** Rows checked at a time (the stored rows their IDs name read in one query). */
export const CHECK_ROWS = 100;

/** A checked row as the pass hands it on. */
export interface ImportRow {
  /** Its row number (the header is 1). */
  number: number;
  action: 'create' | 'update' | 'skip';
  /** The row an update changes. */
  id: number | null;
  /** The record to store, as JSON (create, update; null in a dry run). */
  json: string | null;
  problems: ImportProblem[];
  /** The cells as uploaded, of a skipped row (for the failed rows CSV). */
  cells: string[] | null;
  /** The name rows after it may give it (a created mall), or null. */
  name: string | null;
}

/** The counts of a pass. */
export interface PassCounts {
  rows: number;
  create: number;
  update: number;
  /** Rows with an error (skipped). */
  errors: number;
  /** Rows with warnings only (imported). */
  warnings: number;
}

/** What a pass reads and where its batches go. */
export interface Pass {
  db: Queryable;
  def: ResourceDef;
  declaration: ImportDeclaration;
  /** The city key of the rows. */
  city: string;
  path: string;
  encoding: CsvImportEncoding;
  language: Language;
  resources: ReadonlyMap<string, ResourceDef>;
  /** Whether `onBatch` writes the rows: a row naming an unwritten one then waits for its batch. */
  writes: boolean;
  /** Each batch of checked rows; an import answers the ids of the rows it created, in their order. */
  onBatch(rows: ImportRow[]): Promise<number[] | void>;
  batchRows?: number;
}

/** What a pass reads, without its database and batch handler (what ./pass-thread.ts sends its thread). */
export type PassOptions = Omit<Pass, 'db' | 'onBatch'>;

/**
 * Where a pass puts its checked rows: `add` takes them in file order, a check's worth at a time;
 * `flush` hands on the rows added since the last flush as one batch and resolves to the ids of the
 * rows it created, in their order. A pass calls `flush` only once the batch before has been handed
 * on, and `add`s the next batch's rows meanwhile.
 */
export interface RowSink {
  add(rows: ImportRow[]): void;
  flush(): Promise<number[] | void>;
}

/** The sink that gathers each batch's rows and hands them to `onBatch` (a pass run on this thread). */
function batchSink(onBatch: Pass['onBatch']): RowSink {
  let rows: ImportRow[] = [];
  return {
    add: (more) => void rows.push(...more),
    flush: () => {
      const batch = rows;
      rows = [];
      return onBatch(batch);
    },
  };
}

/** The stored data of the city's rows of `ids` that match the import's fixed values (malls: type 24). */
async function storedRows(
  q: Queryable,
  def: ResourceDef,
  city: string,
  ids: number[],
  set: Record<string, unknown>,
): Promise<Map<number, Record<string, unknown>>> {
  const params: unknown[] = [city, ids];
  const fixed = Object.entries(set).map(([field, value]) => {
    params.push(String(value));
    return ` AND ${textExpr(def, field)} = $${params.length}`;
  });
  const rows = await q.query<{ id: number; data: Record<string, unknown> }>(
    `SELECT id, data FROM ${tableName(def)} WHERE city = $1 AND id = ANY($2::bigint[])${fixed.join('')}`,
    params,
  );
  return new Map(rows.map((r) => [Number(r.id), r.data]));
}

const ACCEPTED: Record<string, { kinds: string[]; label: string }> = {
  image: { kinds: ['image'], label: 'JPEG, PNG, GIF' },
  pdf: { kinds: ['pdf'], label: 'PDF' },
  'image-or-pdf': { kinds: ['image', 'pdf'], label: 'JPEG, PNG, GIF, PDF' },
};

/** The `x-upload` rule of every write (src/server/repositories/write-checks.ts), for a batch in one query: a URL must name an uploaded file of the field's kind. */
async function checkUploads(q: Queryable, def: ResourceDef, rows: CheckedRow[], checks: RowChecks): Promise<void> {
  const fields = Object.entries(def.schema.properties).filter(([, p]) => p['x-upload'] && !Array.isArray(p.type) && p.type === 'string');
  if (fields.length === 0) return;
  const names = rows.flatMap((r) => fields.map(([f]) => fileNameOfUrl(r.data?.[f])).filter((n): n is string => n !== null));
  const kinds = new Map<string, string>();
  if (names.length > 0)
    for (const r of await q.query<{ name: string; kind: string }>('SELECT name, kind FROM files WHERE name = ANY($1::text[])', [names]))
      kinds.set(r.name, r.kind);
  for (const row of rows) {
    if (!row.data) continue;
    for (const [field, prop] of fields) {
      const value = row.data[field];
      if (value === undefined || value === null || value === '') continue;
      const accepted = ACCEPTED[prop['x-upload']!.kind];
      const kind = kinds.get(fileNameOfUrl(value) ?? '');
      if (kind && accepted.kinds.includes(kind)) continue;
      checks.addFieldErrors(row, { [field]: [{ key: messageKey(def.schema, field, 'x-upload'), params: { field, accepted: accepted.label } }] });
    }
  }
}

/**
 * Reads every row of the file once (see the top of this file): rows are checked CHECK_ROWS at a time
 * and kept as `ImportRow`s (the record as one JSON string), handed on `batchRows` at a time.
 * Resolves to the counts. Errors: 400 `validation` for the header (./csv-rows.ts), a malformed file
 * or one without data rows; whatever `onBatch` throws.
 */
export function runPass(o: Pass): Promise<PassCounts> {
  return passInto(o, batchSink(o.onBatch));
}

/**
 * `runPass` with its checked rows put into `sink` (./pass-worker.ts: each batch packed as bytes,
 * ./pass-messages.ts, and handed on to the main thread at its flush). Same counts and errors.
 */
export async function passInto(o: PassOptions & { db: Queryable }, sink: RowSink): Promise<PassCounts> {
  const t = translatorFor(o.language);
  const lookups = await loadLookups(o.db, o.def, o.declaration, o.city, o.resources);
  const counts: PassCounts = { rows: 0, create: 0, update: 0, errors: 0, warnings: 0 };
  const batchRows = o.batchRows ?? IMPORT_BATCH_ROWS;
  let header: Header | null = null;
  let checks: RowChecks | null = null;
  let pending: PreparedRow[] = [];
  // The rows put into the sink since its last flush, and the names of the created ones in order.
  let batched = 0;
  let createdNames: Array<string | null> = [];
  // Ids and names of the rows not written yet (pending or in the sink).
  let changed = new Set<number>();
  let names = new Set<string>();

  // One batch is handed on while the next is read and checked (PostgreSQL writes in its own
  // process meanwhile, PGlite on the main thread while a pass thread reads on); batches are handed
  // on one after another, in order.
  let inFlight: Promise<void> = Promise.resolve();
  const write = async (): Promise<void> => {
    if (batched === 0) return;
    const created = createdNames;
    batched = 0;
    createdNames = [];
    changed = new Set();
    names = new Set();
    await inFlight;
    inFlight = (async () => {
      const ids = (await sink.flush()) ?? [];
      created.forEach((name, i) => name !== null && ids[i] !== undefined && checks!.remember(name, ids[i]));
    })();
    inFlight.catch(() => undefined); // its error is thrown where it is awaited next
  };

  const check = async (): Promise<void> => {
    if (!checks || pending.length === 0) return;
    const c = checks;
    const ids = [...new Set(pending.map((p) => p.id).filter((id): id is number => id !== null))];
    if (ids.length > 0) await inFlight; // the stored rows as the batches before have left them
    const stored = ids.length > 0 ? await storedRows(o.db, o.def, o.city, ids, o.declaration.set) : new Map<number, Record<string, unknown>>();
    const rows = pending.map((p) => c.finish(p, stored));
    pending = [];
    await checkUploads(o.db, o.def, rows, c);
    const out: ImportRow[] = [];
    for (const r of rows) {
      counts.rows += 1;
      if (r.action === 'create') counts.create += 1;
      else if (r.action === 'update') counts.update += 1;
      else counts.errors += 1;
      if (r.action !== 'skip' && r.problems.length > 0) counts.warnings += 1;
      const name = r.action === 'create' ? c.nameOf(r) : null;
      if (name !== null) c.remember(name, PENDING_ID);
      if (r.action === 'create') createdNames.push(name);
      out.push({
        number: r.row.number,
        action: r.action,
        id: r.action === 'update' ? r.id : null,
        json: r.data && o.writes ? JSON.stringify(r.data) : null,
        problems: r.problems,
        cells: r.action === 'skip' ? r.row.cells : null,
        name,
      });
    }
    sink.add(out);
    batched += out.length;
    if (batched >= batchRows) await write();
  };

  try {
    await readRows();
  } catch (err) {
    await inFlight.catch(() => undefined); // no batch is written after the pass has failed
    throw err;
  }
  if (!header) throw refusal(o.language, 'empty');
  if (counts.rows === 0) throw refusal(o.language, 'noRows');
  return counts;

  async function readRows(): Promise<void> {
    for await (const row of csvRows(o.path, o.encoding, o.language)) {
      if (!checks) {
        header = readHeader(row.cells, o.declaration, o.language);
        checks = new RowChecks(o.def, o.declaration, header, lookups, t, o.resources);
        continue;
      }
      let prepared = checks.prepare(row);
      const waits = prepared.missing.some((n) => names.has(n)) || (o.writes && (prepared.waits || (prepared.id !== null && changed.has(prepared.id))));
      if (waits) {
        await check();
        if (o.writes) await write();
        await inFlight;
        prepared = checks.prepare(row);
      }
      pending.push(prepared);
      if (prepared.id !== null) changed.add(prepared.id);
      const name = checks.nameOf(prepared);
      if (name !== null) names.add(name);
      if (pending.length >= CHECK_ROWS) await check();
    }
    await check();
    await write();
    await inFlight;
  }
}

/**
 * The header check and the number of data rows of a file, without reading the rows into cells (the
 * import's answer before its job runs: the header by csv-parse, the rows counted by `countRecords`).
 * Errors: 400 `validation` (header, no data rows).
 */
export async function countRows(
  path: string,
  encoding: CsvImportEncoding,
  declaration: ImportDeclaration,
  language: Language,
): Promise<{ header: Header; rows: number }> {
  let header: Header | null = null;
  for await (const row of csvRows(path, encoding, language)) {
    header = readHeader(row.cells, declaration, language);
    break;
  }
  if (!header) throw refusal(language, 'empty');
  const rows = (await countRecords(decodedText(path, encoding))) - 1;
  if (rows <= 0) throw refusal(language, 'noRows');
  return { header, rows };
}
