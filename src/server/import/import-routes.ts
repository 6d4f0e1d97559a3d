/**
 * The calls of the CSV import (000 2.2 import/upload; 000 5 CSV import; 001 7.16, 8, 9), as
 * src/shared/csv-import.ts lists them. Every call is authorized on the `csv_import` resource of the
 * city (schemas/csv_import.schema.json: Administrators and Operators; 403 for everyone else): `create`
 * uploads, `update` cancels, `read` the rest.
 * - POST /{city}/api/import-csv/ and /{city}/api/import-csv-mall/ (multipart field `file`):
 *   `?dry_run=true` → 200 `DryRunAnswer`, nothing written; else the file's header is checked and its
 *   rows counted, the file copied into the file store (any process may run the job), a history
 *   entry and its job stored, → 202 `ImportState` at once (the job imports in the background:
 *   ./import-job.ts). The same file (SHA-256) imported before in the city → 409
 *   `duplicate_file` unless `confirm_duplicate=true`. Refusals (./import-file.ts, ./csv-rows.ts):
 *   400 `validation` with the message, 413 `too_large`; nothing is stored.
 * - GET /{city}/api/import-csv/{id}/ → 200 `ImportState` (progress while it runs).
 * - POST /{city}/api/import-csv/{id}/cancel → 200 `ImportState`: once the import has stopped and
 *   everything it wrote is undone, `cancelled` (an import that had ended stays as it was).
 * Templates and the failed rows: ./import-downloads.ts. History and log: the `csv_import` and
 * `csv_import_log` resources (the log of one import is the `logs` children action).
 */
import { rm } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DRY_RUN_PROBLEMS_MAX, importDeclaration, type DryRunAnswer, type ImportKind, type ImportProblem } from '../../shared/csv-import';
import type { ResourceDef } from '../../shared/registry';
import { authorize } from '../auth/authorize';
import { HttpError } from '../http-error';
import { answer, errorAnswers, ref } from '../openapi/components';
import { checkedByHandler, throwIfInvalid } from '../plugins/validation';
import { translatorFor } from '../translator';
import { registerImportDownloads } from './import-downloads';
import { fileEncoding, openImportFolder, receiveFile, storeImportFile } from './import-file';
import { IMPORT_JOB, importJob, ORPHAN_IMPORT_FILE_MS, removeOrphanImportFiles, type ImportPayload } from './import-job';
import { countRows } from './import-pass';
import { createImport, findDuplicate, patchImport, readImport, stateOf } from './import-repository';
import { runImportPass } from './pass-thread';
import { addImportSchemas, CITY_PARAMS, IMPORT_ID_PARAMS, UPLOAD_BODY, UPLOAD_QUERY } from './import-schemas';

const UPLOAD_PATHS: Record<ImportKind, string> = { ads: '/:city/api/import-csv/', mall: '/:city/api/import-csv-mall/' };
const truthy = (v: unknown) => v === true || v === 'true' || v === '1';

/** The resources the import works with, or null when the app serves other resources (tests of the generic mechanisms). */
function importResources(resources: ReadonlyMap<string, ResourceDef>): { imports: ResourceDef } | null {
  const imports = resources.get('csv_import');
  const ready = imports && resources.has('csv_import_log') && resources.has('advertisement') && resources.has('genre');
  return ready ? { imports } : null;
}

/** Registers the import calls and the import job kind (nothing when the app serves no `csv_import`). */
export async function registerImportRoutes(app: FastifyInstance): Promise<void> {
  const found = importResources(app.resources);
  if (!found) return;
  const { imports } = found;
  const { db, resources } = app;
  const folder = await openImportFolder(app.config.dataDir);
  app.jobs.define(importJob(db, resources, app.jobs, { store: app.files, dir: folder.dir }));
  app.jobs.chores.set('orphaned import files', (between) => removeOrphanImportFiles(db, { store: app.files, dir: folder.dir }, ORPHAN_IMPORT_FILE_MS, between));
  app.addHook('onClose', () => folder.close());
  addImportSchemas(app);

  async function upload(request: FastifyRequest, kind: ImportKind): Promise<{ status: number; body: unknown }> {
    const { profile, city } = await authorize(request, 'create', 'csv_import');
    throwIfInvalid(request);
    const query = request.query as Record<string, unknown>;
    const language = request.headers['accept-language'];
    const declaration = importDeclaration(kind, resources);
    const def = resources.get(declaration.resource)!;
    const file = await receiveFile(request, folder.dir);
    try {
      const encoding = await fileEncoding(language, file);
      const duplicate = await findDuplicate(db, imports, city.name, file.sha256);
      if (truthy(query.dry_run)) {
        const problems: ImportProblem[] = [];
        const counts = await runImportPass(db, {
          def,
          declaration,
          city: city.name,
          path: file.path,
          encoding,
          language,
          resources,
          writes: false,
          onBatch: async (rows) => {
            for (const r of rows) for (const p of r.problems) if (problems.length < DRY_RUN_PROBLEMS_MAX) problems.push(p);
          },
        });
        const body: DryRunAnswer = { dry_run: true, kind, file_name: file.name, encoding, ...counts, problems, duplicate_of: duplicate };
        return { status: 200, body };
      }
      if (duplicate !== null && !truthy(query.confirm_duplicate))
        throw new HttpError('duplicate_file', { detail: translatorFor(language)('errors.duplicate_file') });
      const { header, rows } = await countRows(file.path, encoding, declaration, language);
      // The job may run in another process: it reads the file from the file store (./import-file.ts).
      const stored = await storeImportFile(app.files, file.path);
      const id = await db.transaction(async (tx) => {
        const entry = await createImport(
          tx,
          imports,
          city.name,
          {
            file_name: file.name,
            kind,
            status: 'processing',
            encoding,
            file_size: file.bytes,
            total_rows: rows,
            done_rows: 0,
            created_rows: 0,
            updated_rows: 0,
            success_rows: 0,
            error_rows: 0,
            warning_rows: 0,
            imported_by: (profile.name || profile.username).slice(0, 64),
            sha256: file.sha256,
            header: header.cells.slice(0, 200).map((c) => c.slice(0, 1000)),
          },
          { userId: profile.id },
        );
        const payload: ImportPayload = {
          import: entry,
          kind,
          city: city.name,
          stored,
          encoding,
          language: typeof language === 'string' ? language : null,
          user: profile.id,
          resource: def.name,
        };
        await patchImport(tx, imports, entry, { job: await app.jobs.enqueue(tx, IMPORT_JOB, { ...payload }) });
        return entry;
      }).catch(async (err: unknown) => {
        await app.files.remove(stored).catch(() => undefined);
        throw err;
      });
      app.jobs.poke();
      return { status: 202, body: stateOf(await readImport(db, imports, city.name, id)) };
    } finally {
      await rm(file.path, { force: true });
    }
  }

  await app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });
    for (const kind of ['ads', 'mall'] as const) {
      scope.post(
        UPLOAD_PATHS[kind],
        {
          config: { api: true },
          schema: {
            operationId: kind === 'ads' ? 'import_csv' : 'import_csv_mall',
            tags: ['import'],
            summary: kind === 'ads' ? 'Check or import a CSV file of shops (advertisements)' : 'Check or import a CSV file of malls (genres of type 24)',
            description:
              'Multipart field `file`. `dry_run=true`: the check, nothing written (200). Else the import runs in the background as a job (202); the same file again needs `confirm_duplicate=true` (409 duplicate_file).',
            params: CITY_PARAMS,
            querystring: UPLOAD_QUERY,
            body: UPLOAD_BODY,
            response: {
              '200': answer('The check (dry run)', ref('DryRunAnswer')),
              '202': answer('The import, started', ref('ImportState')),
              ...errorAnswers(400, 401, 403, 404, 409, 413),
            },
          },
          // The multipart body is read by the handler, streamed (./import-file.ts).
          validatorCompiler: checkedByHandler(app, ['body']),
        },
        async (request, reply) => {
          const { status, body } = await upload(request, kind);
          return reply.code(status).send(body);
        },
      );
    }
  });

  app.get(
    '/:city/api/import-csv/:id/',
    {
      config: { api: true },
      schema: {
        operationId: 'import_csv_state',
        tags: ['import'],
        summary: 'An import: its status and progress (path ours)',
        params: IMPORT_ID_PARAMS,
        response: { '200': answer('The import', ref('ImportState')), ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { city } = await authorize(request, 'read', 'csv_import');
      throwIfInvalid(request);
      return stateOf(await readImport(db, imports, city.name, (request.params as { id: string }).id));
    },
  );

  app.post(
    '/:city/api/import-csv/:id/cancel',
    {
      config: { api: true },
      schema: {
        operationId: 'import_csv_cancel',
        tags: ['import'],
        summary: 'Cancel an import: everything it wrote is undone (path ours)',
        params: IMPORT_ID_PARAMS,
        response: { '200': answer('The import once stopped', ref('ImportState')), ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { city } = await authorize(request, 'update', 'csv_import');
      throwIfInvalid(request);
      const entry = await readImport(db, imports, city.name, (request.params as { id: string }).id);
      if (entry.status === 'processing' && entry.job) await app.jobs.cancel(entry.job);
      return stateOf(await readImport(db, imports, city.name, entry.id));
    },
  );

  registerImportDownloads(app, imports);
}
