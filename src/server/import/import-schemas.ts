/**
 * The Fastify schemas of the import calls (001 7.16; the shapes of src/shared/csv-import.ts): shared
 * answers `ImportState`, `DryRunAnswer` and `ImportProblem` (added to the app with `addSchema`, so
 * /openapi.json names them in `components.schemas`), the upload's query and multipart body, and the
 * path parameters.
 */
import type { FastifyInstance } from 'fastify';
import { CSV_IMPORT_ENCODINGS, CSV_IMPORT_MAX_BYTES, DRY_RUN_PROBLEMS_MAX } from '../../shared/csv-import';
import { pathParams } from '../openapi/call-schemas';

const COUNT = { type: 'integer', minimum: 0 };
const KIND = { type: 'string', enum: ['ads', 'mall'], description: 'ads: shops (advertisements); mall: malls (genres of type 24)' };
const ENCODING = { type: 'string', enum: [...CSV_IMPORT_ENCODINGS] };

/** The shared answer schemas (see the top of this file). */
export const IMPORT_COMPONENTS = [
  {
    $id: 'ImportProblem',
    type: 'object',
    description: 'A problem of a row: its number in the file (the header is row 1), the column as the header names it, the level and the message',
    required: ['row', 'column', 'level', 'message'],
    properties: {
      row: { type: 'integer', minimum: 1 },
      column: { type: ['string', 'null'] },
      level: { type: 'string', enum: ['error', 'warning'] },
      message: { type: 'string' },
    },
  },
  {
    $id: 'DryRunAnswer',
    type: 'object',
    description: 'What the import of the file would do; nothing is written (000 5 CSV import)',
    required: ['dry_run', 'kind', 'file_name', 'encoding', 'rows', 'create', 'update', 'errors', 'warnings', 'problems', 'duplicate_of'],
    properties: {
      dry_run: { type: 'boolean', const: true },
      kind: KIND,
      file_name: { type: 'string' },
      encoding: ENCODING,
      rows: { ...COUNT, description: 'Data rows (the header not counted)' },
      create: COUNT,
      update: COUNT,
      errors: { ...COUNT, description: 'Rows with an error (the import skips them)' },
      warnings: { ...COUNT, description: 'Rows with warnings only (imported)' },
      problems: {
        type: 'array',
        maxItems: DRY_RUN_PROBLEMS_MAX,
        items: { $ref: 'ImportProblem#' },
        description: `The first ${DRY_RUN_PROBLEMS_MAX} problems in row order`,
      },
      duplicate_of: { type: ['integer', 'null'], description: 'An earlier import of the same file (SHA-256) in the city' },
    },
  },
  {
    $id: 'ImportState',
    type: 'object',
    description: 'An import as it runs and ends: done of total rows, the counts, the status',
    required: ['id', 'kind', 'file_name', 'encoding', 'status', 'total', 'done', 'created', 'updated', 'errors', 'warnings'],
    properties: {
      id: { type: 'integer' },
      kind: KIND,
      file_name: { type: 'string' },
      encoding: ENCODING,
      status: { type: 'string', enum: ['processing', 'success', 'partial', 'failed', 'cancelled'] },
      total: COUNT,
      done: COUNT,
      created: COUNT,
      updated: COUNT,
      errors: COUNT,
      warnings: COUNT,
    },
  },
];

/** Adds the shared answer schemas to `app` (before its routes). */
export function addImportSchemas(app: FastifyInstance): void {
  for (const schema of IMPORT_COMPONENTS) app.addSchema(schema);
}

/** The query of an upload. */
export const UPLOAD_QUERY = {
  type: 'object',
  properties: {
    dry_run: { type: 'boolean', default: false, description: 'true: check the file and answer what the import would do, writing nothing' },
    confirm_duplicate: { type: 'boolean', default: false, description: 'true: import a file whose SHA-256 was imported before (else 409 duplicate_file)' },
  },
};

/** The multipart body of an upload (read by the handler, streamed). */
export const UPLOAD_BODY = {
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: {
            type: 'string',
            format: 'binary',
            description: `The CSV file: .csv, at most ${CSV_IMPORT_MAX_BYTES.toLocaleString('en-US')} bytes, UTF-8 (BOM or not) or Shift_JIS`,
          },
        },
      },
    },
  },
};

/** Path parameters of the calls on one import. */
export const IMPORT_ID_PARAMS = pathParams('/{city}/api/import-csv/{id}/');
/** Path parameters of the uploads and templates. */
export const CITY_PARAMS = pathParams('/{city}/');
