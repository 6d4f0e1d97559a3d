/**
 * Uploads (000 5 Files; 001 9 Text and file limits). Paths ours: the spec shows none.
 * - POST /{city}/api/files/?kind=image|pdf&name=<original name>  body: the file's bytes
 *   (Content-Type application/octet-stream, image/jpeg, image/png, image/gif or application/pdf; no
 *   multipart: @fastify/multipart is not installed) → 201 {url, name, kind, content_type, bytes, width?, height?}.
 *   The BYTES decide the type (magic numbers of JPEG, PNG, GIF, PDF), never the name or the declared
 *   type; image size comes from the header only. Refused with 400 `validation` and a message naming
 *   the rule, nothing stored: another type (a renamed executable), a kind other than `kind`, an image
 *   over 15,728,640 bytes or over 178,956,970 pixels (width × height) or whose size cannot be read, a
 *   PDF over 40,000,000 bytes (also the body limit of this route), an empty body.
 *   Allowed to whoever may create or update a resource with an `x-upload` field in the city.
 * - GET /files/<name> → the file streamed from the file store (the folder or the bucket:
 *   files/file-store.ts), with its content type, `X-Content-Type-Options: nosniff`, its `ETag`
 *   (`If-None-Match` → 304) and one byte range when asked (`Range: bytes=a-b`, `a-`, `-n` → 206 with
 *   `Content-Range`, 416 when outside the file; PDF viewers read pages this way); 404 when the store
 *   has no such file (public: names are random; immutable).
 * Each stored file has a `files` row; fields with `x-upload` accept only such URLs (write-checks.ts).
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ResourceDef } from '../../shared/registry';
import { IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS, PDF_MAX_BYTES } from '../../shared/uploads';
import { authorize } from '../auth/authorize';
import type { Config } from '../config';
import { CONTENT_TYPES, EXTENSIONS, FILE_NAME, fileUrl } from './file-names';
import { installDemoFiles } from './demo-files';
import { type ByteRange, type FileStore } from './file-store';
import { openFileStore } from './open-file-store';
import { sniff } from './sniff';
import { HttpError } from '../http-error';
import { pathParams } from '../openapi/call-schemas';
import { answer, errorAnswers, ref } from '../openapi/components';
import { errorAnswer, sendNotFound } from '../plugins/errors';
import { checkedByHandler, throwIfInvalid } from '../plugins/validation';
import { translatorFor } from '../translator';

/** Content types whose body is read as the file's bytes. */
export const UPLOAD_CONTENT_TYPES = ['application/octet-stream', 'image/jpeg', 'image/png', 'image/gif', 'application/pdf'];

/** Messages of refusals, with their Japanese text until the locales hold the keys. */
export const UPLOAD_MESSAGES = {
  'validation.upload.empty': 'ファイルが空です。',
  'validation.upload.type': 'JPEG・PNG・GIFの画像またはPDFのみアップロードできます（ファイルの中身で判定します）。',
  'validation.upload.kind': '{{expected}}のファイルを選択してください。',
  'validation.upload.imageBytes': '画像は{{max}}バイト（15MB）までです（このファイルは{{bytes}}バイトです）。',
  'validation.upload.pixels': '画像は{{max}}ピクセルまでです（このファイルは{{width}}×{{height}}＝{{pixels}}ピクセルです）。',
  'validation.upload.size': '画像の縦横の大きさを読み取れません。',
  'validation.upload.pdfBytes': 'PDFは{{max}}バイトまでです（このファイルは{{bytes}}バイトです）。',
  'validation.upload.tooLarge': 'ファイルは{{max}}バイトまでです。',
} as const;

type MessageKey = keyof typeof UPLOAD_MESSAGES;

const n = (v: number) => v.toLocaleString('en-US');

function refuse(request: FastifyRequest, key: MessageKey, params: Record<string, unknown> = {}): HttpError {
  const all = { ...params, defaultValue: UPLOAD_MESSAGES[key] };
  const detail = translatorFor(request.headers['accept-language'])(key, all);
  return new HttpError('validation', { detail, fieldErrors: { file: [{ key, params: { field: 'file', ...all } }] } });
}

const KIND_LABEL: Record<string, string> = { image: 'JPEG, PNG, GIF', pdf: 'PDF' };

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files (files/file-routes.ts). */
    files: FileStore;
  }
}

/**
 * The one byte range a `Range` header asks of a file of `size` bytes: null when there is no usable
 * header (several ranges or another unit: the whole file is sent, as RFC 9110 14.2 allows),
 * 'unsatisfiable' when the range lies outside the file (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Registers the upload and file routes; opens the file store of `config` (closed with the app). */
export async function registerFileRoutes(app: FastifyInstance, deps: { config: Config; resources: ReadonlyMap<string, ResourceDef> }): Promise<void> {
  const store = await openFileStore(deps.config);
  app.decorate('files', store);
  app.addHook('onClose', () => store.close());
  // The demo rows' pictures (files/demo-files.ts): their `files` rows come with the demo seed.
  if (!deps.config.production) await installDemoFiles(store);
  const withUploads = [...deps.resources.values()].filter((d) => Object.values(d.schema.properties).some((p) => p['x-upload'])).map((d) => d.name);
  const subjects = withUploads.length > 0 ? withUploads : ['files'];

  await app.register(async (scope) => {
    scope.addContentTypeParser(UPLOAD_CONTENT_TYPES, { parseAs: 'buffer', bodyLimit: PDF_MAX_BYTES }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((err: FastifyError, request, reply) => {
      const error = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? refuse(request, 'validation.upload.tooLarge', { max: n(PDF_MAX_BYTES) }) : err;
      const { status, body, headers } = errorAnswer(error, request);
      if (status >= 500) request.log.error({ err }, 'request failed');
      if (headers) reply.headers(headers);
      return reply.code(status).type('application/json; charset=utf-8').send(body);
    });
    scope.post(
      '/:city/api/files/',
      {
        bodyLimit: PDF_MAX_BYTES,
        config: { api: true },
        schema: {
          operationId: 'files_upload',
          tags: ['files'],
          summary: 'Upload an image or a PDF',
          description: `The body is the file (000 5 Files). The content decides the type: JPEG, PNG or GIF images up to ${n(IMAGE_MAX_BYTES)} bytes and ${n(IMAGE_MAX_PIXELS)} pixels, PDFs up to ${n(PDF_MAX_BYTES)} bytes (path ours).`,
          params: pathParams('/{city}/'),
          querystring: {
            type: 'object',
            properties: {
              kind: { type: 'string', enum: ['image', 'pdf', 'image-or-pdf'], description: 'The kind the field accepts (default any)' },
              name: { type: 'string', description: 'The original file name (kept, cut to 255 characters)' },
            },
          },
          body: { content: Object.fromEntries(UPLOAD_CONTENT_TYPES.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])) },
          response: { '201': answer('Stored', ref('UploadedFile')), ...errorAnswers(400, 401, 403, 404) },
        },
        // The bytes are judged by the handler (`sniff`), not by a schema.
        validatorCompiler: checkedByHandler(app, ['body']),
      },
      async (request, reply) => {
        const { profile, city } = await authorize(request, ['create', 'update'], subjects);
        throwIfInvalid(request);
        const q = request.query as Record<string, unknown>;
        const bytes = Buffer.isBuffer(request.body) ? request.body : null;
        if (!bytes || bytes.length === 0) throw refuse(request, 'validation.upload.empty');
        const found = sniff(bytes);
        if (!found) throw refuse(request, 'validation.upload.type');
        const kind = typeof q.kind === 'string' ? q.kind : undefined;
        if (kind && kind !== 'image-or-pdf' && kind !== found.kind) throw refuse(request, 'validation.upload.kind', { expected: KIND_LABEL[kind] ?? kind });
        if (found.kind === 'image') {
          if (bytes.length > IMAGE_MAX_BYTES) throw refuse(request, 'validation.upload.imageBytes', { max: n(IMAGE_MAX_BYTES), bytes: n(bytes.length) });
          if (!found.width || !found.height) throw refuse(request, 'validation.upload.size');
          const pixels = found.width * found.height;
          if (pixels > IMAGE_MAX_PIXELS) {
            throw refuse(request, 'validation.upload.pixels', { max: n(IMAGE_MAX_PIXELS), width: n(found.width), height: n(found.height), pixels: n(pixels) });
          }
        } else if (bytes.length > PDF_MAX_BYTES) {
          throw refuse(request, 'validation.upload.pdfBytes', { max: n(PDF_MAX_BYTES), bytes: n(bytes.length) });
        }
        const ext = EXTENSIONS[found.type];
        const contentType = CONTENT_TYPES[ext];
        const name = await store.save(bytes, ext);
        const original = typeof q.name === 'string' ? q.name.slice(0, 255) : null;
        try {
          await app.db.query(
            `INSERT INTO files (name, city, kind, content_type, bytes, width, height, original_name, user_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [name, city.name, found.kind, contentType, bytes.length, found.width, found.height, original, profile.id],
          );
        } catch (err) {
          await store.remove(name);
          throw err;
        }
        const answer: Record<string, unknown> = { url: fileUrl(name), name, kind: found.kind, content_type: contentType, bytes: bytes.length };
        if (found.kind === 'image') Object.assign(answer, { width: found.width, height: found.height });
        return reply.code(201).send(answer);
      },
    );
  });

  app.get(
    '/files/:name',
    {
      schema: {
        operationId: 'files_get',
        tags: ['files'],
        summary: 'An uploaded file',
        security: [],
        params: { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: FILE_NAME.source } } },
        response: {
          '200': { description: 'The file', content: Object.fromEntries([...new Set(Object.values(CONTENT_TYPES))].map((t) => [t, { schema: { type: 'string', format: 'binary' } }])) },
          '206': { description: 'The asked byte range of the file (Range)', content: Object.fromEntries([...new Set(Object.values(CONTENT_TYPES))].map((t) => [t, { schema: { type: 'string', format: 'binary' } }])) },
          '304': { description: 'Not modified (If-None-Match matches the ETag)' },
          '416': { description: 'The asked range lies outside the file (no body; `Content-Range: bytes */<size>`)' },
          ...errorAnswers(404),
        },
      },
    },
    async (request, reply) => {
      throwIfInvalid(request);
      const { name } = request.params as { name: string };
      if (!FILE_NAME.test(name)) return sendNotFound(request, reply);
      const info = await store.info(name);
      if (!info) return sendNotFound(request, reply);
      reply
        .header('content-type', CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)])
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-disposition', 'inline')
        .header('etag', info.etag)
        .header('last-modified', info.lastModified.toUTCString())
        .header('accept-ranges', 'bytes');
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === info.etag || tag.trim() === '*')) {
        return reply.code(304).send();
      }
      const ifRange = request.headers['if-range'];
      const range = ifRange && ifRange !== info.etag ? null : parseRange(request.headers.range, info.bytes);
      if (range === 'unsatisfiable') {
        return reply.code(416).header('content-range', `bytes */${info.bytes}`).send();
      }
      const body = await store.read(name, range ?? undefined);
      if (!body) return sendNotFound(request, reply);
      if (range) {
        reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${info.bytes}`);
      }
      return reply.header('content-length', String(range ? range.end - range.start + 1 : info.bytes)).send(body);
    },
  );
}
