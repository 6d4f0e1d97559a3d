/**
 * The checks of one row of an import (000 5 CSV import rows; 001 8 the invalid-category warning),
 * with the rules and messages of every other write of the resource: the cells become a record, which
 * `composeRecord` checks with the one ajv set-up (src/shared/validation.ts; an update merges into the
 * stored record, as PATCH does). Before that, per column (`ImportColumn`, the schema's `x-import`):
 * - a required column's cell must not be empty (`validation.import.required`);
 * - `ID`: a whole number ≥ 1; the row updates the city's row of that id when there is one, else
 *   creates a row;
 * - lookups (./lookups.ts): a genre path, a category or a parent mall by name, an Advertiser by
 *   username; a value not found is an error, or for a column with `unknown: "warning"` (category) the
 *   warning このカテゴリが無効なものです and the row goes without it (an update keeps the stored one);
 * - number fields take numbers (full-width digits too);
 * - every other cell is text as written: a formula-looking cell (`=`, `+`, `-`, `@` first) is stored
 *   as text, never run; the `'` this project's CSV exports put before one (src/server/csv.ts) is
 *   taken off again, so a failed rows CSV can be uploaded again as it is.
 * A cell of an update's column left empty clears that field. Messages are in the uploader's language.
 */
import type { ImportColumn, ImportDeclaration, ImportProblem } from '../../shared/csv-import';
import { isNumericField } from '../../shared/field-types';
import type { ResourceDef } from '../../shared/registry';
import type { FieldErrors } from '../../shared/validation';
import { HttpError } from '../http-error';
import { composeRecord } from '../repositories/resource-repository';
import type { Translate } from '../translator';
import type { CsvRow, Header } from './csv-rows';
import { lookupTarget, normalPath, type Lookups } from './lookups';

/** A row read and checked as far as it can be without the stored rows. */
export interface PreparedRow {
  row: CsvRow;
  /** The `ID` cell's value, or null. */
  id: number | null;
  /** Field values of the cells. */
  values: Record<string, unknown>;
  /** Fields whose (optional) cell is empty: an update clears them. */
  cleared: string[];
  problems: ImportProblem[];
  /** It names a row this import has checked but not written yet (a parent mall of the same batch). */
  waits: boolean;
  /** Names its lookups did not find that rows of this import may create (a parent mall further up the file). */
  missing: string[];
}

/** A checked row: what the import does with it. */
export interface CheckedRow extends PreparedRow {
  action: 'create' | 'update' | 'skip';
  /** The record to store (create, update). */
  data: Record<string, unknown> | null;
}

/** Id of a row checked by this import and not written yet (dry run: never written). */
export const PENDING_ID = 0;

const FORMULA_ESCAPE = /^'(?=[=+\-@\t\r])/;
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

/** The checks of the rows of one file (see the top of this file). */
export class RowChecks {
  private readonly positions: Array<{ index: number; column: ImportColumn; title: string }>;
  /** Cells of the header (a row with a non-empty cell past them has too many). */
  private readonly width: number;
  private readonly titles = new Map<string, string>();
  /** Columns whose lookup names rows this import creates (a parent mall of the same file). */
  private readonly selfNamed: ImportColumn[];

  constructor(
    private readonly def: ResourceDef,
    private readonly declaration: ImportDeclaration,
    header: Header,
    private readonly lookups: Lookups,
    private readonly t: Translate,
    resources: ReadonlyMap<string, ResourceDef>,
  ) {
    this.width = header.cells.length;
    this.positions = header.columns.flatMap((column, index) => (column ? [{ index, column, title: header.cells[index].trim() }] : []));
    for (const p of this.positions) this.titles.set(p.column.field, p.title);
    const set = declaration.set;
    this.selfNamed = this.positions
      .map((p) => p.column)
      .filter(
        (c) => c.lookup === 'name' && lookupTarget(def, c.field, resources).name === def.name && Object.entries(c.where ?? {}).every(([k, v]) => set[k] === v),
      );
  }

  private problem(
    out: ImportProblem[],
    row: CsvRow,
    column: string | null,
    level: 'error' | 'warning',
    key: string,
    params: Record<string, unknown> = {},
  ): void {
    out.push({ row: row.number, column, level, message: this.t(key, params) });
  }

  /** Reads a data row's cells (see the top of this file). */
  prepare(row: CsvRow): PreparedRow {
    const out: PreparedRow = { row, id: null, values: {}, cleared: [], problems: [], waits: false, missing: [] };
    if (row.cells.slice(this.width).some((c) => c.trim() !== '')) this.problem(out.problems, row, null, 'error', 'validation.import.extraCells');
    for (const { index, column, title } of this.positions) {
      const text = (row.cells[index] ?? '').trim().replace(FORMULA_ESCAPE, '');
      if (text === '') {
        if (column.required) this.problem(out.problems, row, title, 'error', 'validation.import.required', { column: title });
        else if (column.field !== this.def.idField) out.cleared.push(column.field);
        continue;
      }
      if (column.field === this.def.idField) {
        if (/^\d{1,15}$/.test(text) && Number(text) >= 1) out.id = Number(text);
        else this.problem(out.problems, row, title, 'error', 'validation.import.id');
        continue;
      }
      if (column.lookup) {
        this.lookup(out, column, title, text);
        continue;
      }
      if (isNumericField(this.def.schema.properties[column.field])) {
        const number = text.normalize('NFKC');
        if (NUMBER.test(number)) out.values[column.field] = Number(number);
        else this.problem(out.problems, row, title, 'error', 'validation.import.number');
        continue;
      }
      out.values[column.field] = text;
    }
    return out;
  }

  private lookup(out: PreparedRow, column: ImportColumn, title: string, text: string): void {
    const known = this.lookups.get(column.key);
    if (column.lookup === 'advertiser') {
      if (known instanceof Set && known.has(text)) out.values[column.field] = text;
      else this.problem(out.problems, out.row, title, 'error', 'validation.import.advertiser', { value: text });
      return;
    }
    const key = column.lookup === 'path' ? normalPath(text) : text;
    const id = known instanceof Map ? known.get(key) : undefined;
    if (id !== undefined) {
      out.values[column.field] = id;
      if (id === PENDING_ID) out.waits = true;
    } else if (column.unknown === 'warning') this.problem(out.problems, out.row, title, 'warning', 'validation.import.invalidCategory');
    else {
      this.problem(out.problems, out.row, title, 'error', 'validation.import.notFound', { value: text });
      if (this.selfNamed.includes(column)) out.missing.push(key);
    }
  }

  /** The name a row gives the row it writes, when rows of this import can be named (malls), else null. */
  nameOf(prepared: PreparedRow): string | null {
    const name = prepared.values.name;
    return this.selfNamed.length > 0 && typeof name === 'string' ? name : null;
  }

  /**
   * The row's outcome given the stored data of the rows its `ID` names (`stored`: id → data of the
   * city's rows): create, update or skip (an error), with the ajv errors of the record added.
   */
  finish(prepared: PreparedRow, stored: ReadonlyMap<number, Record<string, unknown>>): CheckedRow {
    const out: CheckedRow = { ...prepared, problems: [...prepared.problems], action: 'skip', data: null };
    if (out.problems.some((p) => p.level === 'error')) return out;
    const keep = prepared.id !== null ? (stored.get(prepared.id) ?? null) : null;
    const input: Record<string, unknown> = keep ? { ...keep, ...prepared.values } : { ...prepared.values };
    if (keep) for (const f of prepared.cleared) delete input[f];
    try {
      out.data = composeRecord(this.def, input, this.declaration.set, keep);
      out.action = keep ? 'update' : 'create';
    } catch (err) {
      if (!(err instanceof HttpError) || err.code !== 'validation') throw err;
      this.addFieldErrors(out, err.fieldErrors ?? {});
    }
    return out;
  }

  /** Adds field errors to a row (each field's first message once; fields with a problem already are left out) and skips it. */
  addFieldErrors(out: CheckedRow, errors: FieldErrors): void {
    const titled = new Set(out.problems.map((p) => p.column));
    for (const [field, list] of Object.entries(errors)) {
      const title = this.titles.get(field) ?? null;
      if (title !== null && titled.has(title)) continue;
      for (const e of list.filter((x, i) => list.findIndex((y) => y.key === x.key) === i)) {
        this.problem(out.problems, out.row, title, 'error', e.key, { ...e.params, column: title ?? field });
      }
    }
    out.problems.sort((a, b) => (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1));
    out.action = 'skip';
    out.data = null;
  }

  /**
   * Makes a row this import creates nameable by the rows after it (a parent mall given by name before
   * its children): `id` is its stored id, or PENDING_ID while it is not written.
   */
  remember(name: string, id: number): void {
    for (const column of this.selfNamed) {
      const known = this.lookups.get(column.key);
      if (known instanceof Map && (!known.has(name) || known.get(name) === PENDING_ID)) known.set(name, id);
    }
  }
}
