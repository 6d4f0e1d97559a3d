/**
 * The CSV files the import offers (001 7.16; 000 2.2 import/upload and import/history), written as
 * the CSV exports are (src/server/csv.ts: csv-stringify, formula-escaped cells, UTF-8 with a BOM so
 * spreadsheet software reads Japanese):
 * - GET /{city}/api/import-csv/template and /{city}/api/import-csv-mall/template (ours): the header
 *   (the columns' Japanese labels, schemas' `x-import`) and two example rows;
 * - GET /{city}/api/import-csv/{id}/failed-rows (ours): the rows an import skipped, as uploaded
 *   (under the file's own header), with an error column holding their messages, ready to be fixed
 *   and uploaded again (the import takes the `'` of an escaped cell off again). The rows are read
 *   from the log in batches, in row order.
 * Authorized as reading `csv_import` in the city (Administrators and Operators).
 */
import type { FastifyInstance } from 'fastify';
import { importDeclaration, type ImportKind } from '../../shared/csv-import';
import type { ResourceDef } from '../../shared/registry';
import { authorize } from '../auth/authorize';
import { csvContentType, csvStream } from '../csv';
import { fieldExpr, tableName } from '../db/resource-tables';
import { answer, errorAnswers } from '../openapi/components';
import { throwIfInvalid } from '../plugins/validation';
import { translatorFor } from '../translator';
import { readImport } from './import-repository';
import { CITY_PARAMS, IMPORT_ID_PARAMS } from './import-schemas';

const TEMPLATE: Record<ImportKind, { path: string; file: string }> = {
  ads: { path: '/:city/api/import-csv/template', file: 'shops-template.csv' },
  mall: { path: '/:city/api/import-csv-mall/template', file: 'malls-template.csv' },
};
const CSV_ANSWER = answer('CSV, UTF-8 with a BOM', { type: 'string' }, 'text/csv');
/** Failed rows read from the log per query. */
const LOG_BATCH = 500;

async function* rowsOf(values: ReadonlyArray<readonly unknown[]>): AsyncGenerator<readonly unknown[]> {
  yield* values;
}

/** Registers the template and failed rows downloads; `imports` is the `csv_import` resource. */
export function registerImportDownloads(app: FastifyInstance, imports: ResourceDef): void {
  const { db, resources } = app;
  const log = resources.get('csv_import_log')!;
  const table = tableName(log);
  // The expressions of the log's filter and sort indexes (db/resource-tables.ts).
  const ofImport = fieldExpr(log, 'csv_import');
  const rowNumber = fieldExpr(log, 'row_number');
  for (const kind of ['ads', 'mall'] as const) {
    app.get(
      TEMPLATE[kind].path,
      {
        config: { api: true },
        schema: {
          operationId: kind === 'ads' ? 'import_csv_template' : 'import_csv_mall_template',
          tags: ['import'],
          summary: `The template of a ${kind === 'ads' ? 'shop' : 'mall'} CSV file: header and two example rows (path ours)`,
          params: CITY_PARAMS,
          response: { '200': CSV_ANSWER, ...errorAnswers(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await authorize(request, 'read', 'csv_import');
        throwIfInvalid(request);
        const { columns, examples } = importDeclaration(kind, resources);
        const lines = examples.map((example) => columns.map((c) => example[c.key] ?? ''));
        return reply
          .header('content-type', csvContentType('utf-8'))
          .header('content-disposition', `attachment; filename="${TEMPLATE[kind].file}"`)
          .header('x-content-type-options', 'nosniff')
          .send(
            csvStream(
              columns.map((c) => c.label),
              rowsOf(lines),
              'utf-8',
            ),
          );
      },
    );
  }

  app.get(
    '/:city/api/import-csv/:id/failed-rows',
    {
      config: { api: true },
      schema: {
        operationId: 'import_csv_failed_rows',
        tags: ['import'],
        summary: 'The rows an import skipped, as uploaded, with an error column (path ours)',
        params: IMPORT_ID_PARAMS,
        response: { '200': CSV_ANSWER, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { city } = await authorize(request, 'read', 'csv_import');
      throwIfInvalid(request);
      const entry = await readImport(db, imports, city.name, (request.params as { id: string }).id);
      const t = translatorFor(request.headers['accept-language']);
      const header = entry.header ?? [];
      async function* failed(): AsyncGenerator<unknown[]> {
        let after = 0;
        for (;;) {
          // The error lines of the rows after `after`, a batch of rows at a time, in row order.
          const where = `city = $1 AND ${ofImport} = $2 AND data->>'level' = 'error' AND ${rowNumber} > $3`;
          const lines = await db.query<{ row: number; message: string; cells: string[] | null }>(
            `SELECT ${rowNumber}::int AS row, data->>'message' AS message, data->'cells' AS cells FROM ${table}
             WHERE ${where} AND ${rowNumber} <= (SELECT max(r) FROM (SELECT ${rowNumber} AS r FROM ${table} WHERE ${where} ORDER BY 1 LIMIT ${LOG_BATCH}) AS b)
             ORDER BY 1, id`,
            [city.name, entry.id, after],
          );
          if (lines.length === 0) return;
          let current: { row: number; cells: string[]; messages: string[] } | null = null;
          for (const line of lines) {
            if (current && current.row !== line.row) yield [...current.cells, current.messages.join(' / ')];
            if (!current || current.row !== line.row) current = { row: line.row, cells: [], messages: [] };
            if (line.cells) current.cells = header.map((_h, i) => line.cells?.[i] ?? '');
            current.messages.push(line.message);
          }
          if (current) yield [...current.cells, current.messages.join(' / ')];
          after = lines[lines.length - 1].row;
        }
      }
      return reply
        .header('content-type', csvContentType('utf-8'))
        .header('content-disposition', `attachment; filename="failed-rows-${entry.id}.csv"`)
        .header('x-content-type-options', 'nosniff')
        .send(csvStream([...header, t('validation.import.errorColumn')], failed(), 'utf-8'));
    },
  );
}
