/**
 * The uploaded CSV file of an import (000 5 CSV import: at most 10 MB, not empty, `.csv`, UTF-8 or
 * Shift_JIS; 001 9), before any row is read:
 * - received from the multipart field `file` (@fastify/multipart) straight into a file of the import
 *   folder, its SHA-256 and size counted on the way; past CSV_IMPORT_MAX_BYTES the upload is refused
 *   while it streams (413 `too_large`) and nothing is kept; an aborted upload keeps nothing either;
 * - refused with a message naming the problem: no file, another extension, an empty file, an image
 *   or PDF (their magic numbers) or other binary bytes (NUL), text in neither encoding;
 * - its encoding found by decoding it whole, streamed, with fatal decoders: UTF-8 (a BOM is allowed
 *   and dropped) first, else Shift_JIS as Windows writes it (Node's `TextDecoder('shift_jis')`, the
 *   WHATWG decoder with the NEC and IBM extensions, so 髙, ①, ㈱ decode; iconv-lite's `cp932` when
 *   Node lacks it). The text is decoded before it is parsed, so a trail byte 0x5C (ソ is 0x83 0x5C)
 *   is never read as a backslash. The UTF-8 check and the bytes the type is told by are taken while
 *   the file is received; only a file that is not UTF-8 is read again (for Shift_JIS). Each read of
 *   the file waits for the server's thread in turn, behind every other request (docs/performance.md
 *   'Under load').
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import iconv from 'iconv-lite';
import { CSV_IMPORT_EXTENSION, CSV_IMPORT_MAX_BYTES, type CsvImportEncoding } from '../../shared/csv-import';
import type { FileStore } from '../files/file-store';
import { sniff } from '../files/sniff';
import { HttpError } from '../http-error';
import { translatorFor } from '../translator';

/** An upload kept in the import folder. */
export interface ReceivedFile {
  path: string;
  /** The name the client gave (cut to 255 characters). */
  name: string;
  bytes: number;
  sha256: string;
  /** Its first HEAD_BYTES bytes (fewer for a shorter file): its type is told by them. */
  head: Buffer;
  /** Whether the whole file is UTF-8 (a fatal decoder's verdict, taken as it was received). */
  utf8: boolean;
}

/** The bytes of a file's start its type is told by (an image's or PDF's magic number, UTF-16's BOM, a NUL). */
const HEAD_BYTES = 8192;

const n = (v: number) => v.toLocaleString('en-US');

/** An Accept-Language header value (messages in its language, Japanese by default). */
export type Language = string | string[] | undefined;

/**
 * A 400 `validation` (or `code`) refusal with the message `validation.import.<key>` in `language`,
 * also as the field error of `file`.
 */
export function refusal(language: Language, key: string, params: Record<string, unknown> = {}, code: 'validation' | 'too_large' = 'validation'): HttpError {
  const t = translatorFor(language);
  const full = `validation.import.${key}`;
  return new HttpError(code, { detail: t(full, params), fieldErrors: { file: [{ key: full, params: { field: 'file', ...params } }] } });
}

/** The folder uploads wait in while their import runs: `<DATA_DIR>/imports`, or a temporary one for an in-memory database. */
export async function openImportFolder(dataDir: string): Promise<{ dir: string; close(): Promise<void> }> {
  const temporary = dataDir === 'memory://';
  const dir = temporary ? await mkdtemp(join(tmpdir(), 'city-console-imports-')) : join(dataDir, 'imports');
  await mkdir(dir, { recursive: true });
  return { dir, close: async () => (temporary ? rm(dir, { recursive: true, force: true }) : undefined) };
}

/**
 * Copies a received file into the file store (an S3 bucket with several processes: the job may run
 * in another process, docs/deployment.md) under a new `import-<32 hex>.csv` name (IMPORT_FILE_NAME,
 * never served). Resolves to that name. Errors: the store's.
 */
export async function storeImportFile(store: FileStore, path: string): Promise<string> {
  const name = `import-${randomBytes(16).toString('hex')}.csv`;
  await store.put(name, await readFile(path));
  return name;
}

/**
 * Fetches the stored import file `name` from `store` into a new file of `dir` (the pass reads a local
 * file, in a worker thread), for whichever process runs the job. Resolves to its path; the caller
 * removes it. Errors: the file is not in the store (an import whose file was removed), the store's.
 */
export async function fetchImportFile(store: FileStore, name: string, dir: string): Promise<string> {
  const body = await store.read(name);
  if (!body) throw new Error(`the uploaded file ${name} is not in the file store`);
  const path = join(dir, `${randomBytes(16).toString('hex')}.csv`);
  try {
    await pipeline(body, createWriteStream(path, { flags: 'wx' }));
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  return path;
}

/**
 * Receives the multipart field `file` into `dir` (see the top of this file). Resolves to the kept
 * file; the caller removes it. Errors: 400 `validation` (no file, extension, empty), 413
 * `too_large`; stream errors of an aborted upload (nothing kept).
 */
export async function receiveFile(request: FastifyRequest, dir: string): Promise<ReceivedFile> {
  const language = request.headers['accept-language'];
  if (!request.isMultipart()) throw refusal(language, 'noFile');
  const part = await request.file({ limits: { fileSize: CSV_IMPORT_MAX_BYTES, files: 1, fields: 20, parts: 30 } });
  if (!part || part.fieldname !== 'file') {
    part?.file.resume();
    throw refusal(language, 'noFile');
  }
  const name = (part.filename || '').slice(0, 255);
  const path = join(dir, `${randomBytes(16).toString('hex')}.csv`);
  const hash = createHash('sha256');
  let bytes = 0;
  let tooLarge = false;
  const head: Buffer[] = [];
  let headBytes = 0;
  let utf8: StrictDecoder | null = strictDecoder('utf-8');
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      if (headBytes < HEAD_BYTES) {
        head.push(chunk.subarray(0, HEAD_BYTES - headBytes));
        headBytes += head[head.length - 1].length;
      }
      utf8 = stillDecodes(utf8, chunk);
      done(null, chunk);
    },
    flush(done) {
      utf8 = stillDecodes(utf8);
      done();
    },
  });
  // Past the limit busboy cuts the file short: stop writing at once and refuse (413).
  part.file.once('limit', () => {
    tooLarge = true;
    count.destroy(new Error('too large'));
  });
  try {
    await pipeline(part.file, count, createWriteStream(path, { flags: 'wx' }));
  } catch (err) {
    await rm(path, { force: true });
    part.file.resume();
    if (tooLarge) throw refusal(language, 'tooLarge', { max: n(CSV_IMPORT_MAX_BYTES) }, 'too_large');
    throw err;
  }
  if (tooLarge || part.file.truncated) {
    await rm(path, { force: true });
    throw refusal(language, 'tooLarge', { max: n(CSV_IMPORT_MAX_BYTES) }, 'too_large');
  }
  const file = { path, name, bytes, sha256: hash.digest('hex'), head: Buffer.concat(head), utf8: utf8 !== null };
  try {
    if (!name.toLowerCase().endsWith(CSV_IMPORT_EXTENSION)) throw refusal(language, 'extension', { name: name || '—' });
    if (bytes === 0) throw refusal(language, 'empty');
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  return file;
}

/** A decoder of one encoding that throws a TypeError on bytes that are not text in it. */
export interface StrictDecoder {
  /** Decodes the next chunk (a character split between chunks waits for the next); no chunk: the end. */
  decode(chunk?: Uint8Array): string;
}

/** A fatal decoder of `encoding` (see the top of this file). */
export function strictDecoder(encoding: CsvImportEncoding): StrictDecoder {
  if (encoding === 'utf-8') {
    const d = new TextDecoder('utf-8', { fatal: true });
    return { decode: (chunk) => (chunk ? d.decode(chunk, { stream: true }) : d.decode()) };
  }
  let native: TextDecoder | null = null;
  try {
    native = new TextDecoder('shift_jis', { fatal: true });
  } catch {
    native = null; // a Node without full ICU
  }
  if (native) {
    const d = native;
    return { decode: (chunk) => (chunk ? d.decode(chunk, { stream: true }) : d.decode()) };
  }
  const d = iconv.getDecoder('cp932');
  return {
    decode(chunk) {
      const text = chunk ? d.write(Buffer.from(chunk)) : (d.end() ?? '');
      if (text.includes('\uFFFD')) throw new TypeError('not Shift_JIS');
      return text;
    },
  };
}

/** `decoder` after it decoded `chunk` (none: the end), or null once it refused the bytes (null stays null). */
function stillDecodes(decoder: StrictDecoder | null, chunk?: Uint8Array): StrictDecoder | null {
  if (!decoder) return null;
  try {
    decoder.decode(chunk);
    return decoder;
  } catch (err) {
    if (err instanceof TypeError) return null;
    throw err;
  }
}

/**
 * The decoded text of a file, in chunks (streamed: 32 KB of bytes at a time, so each string is a
 * young object, not one of V8's large objects that only a full collection frees). Errors: TypeError
 * for bytes not in `encoding`.
 */
export async function* decodedText(path: string, encoding: CsvImportEncoding): AsyncGenerator<string> {
  const decoder = strictDecoder(encoding);
  for await (const chunk of createReadStream(path, { highWaterMark: 32 * 1024 })) {
    const text = decoder.decode(chunk as Buffer);
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

async function decodes(path: string, encoding: CsvImportEncoding): Promise<boolean> {
  try {
    for await (const _text of decodedText(path, encoding));
    return true;
  } catch (err) {
    if (err instanceof TypeError) return false;
    throw err;
  }
}

const TYPE_LABEL: Record<string, string> = { png: 'PNG', jpeg: 'JPEG', gif: 'GIF', pdf: 'PDF' };

/**
 * The encoding of a received file (see the top of this file). Errors: 400 `validation` for an
 * image, a PDF, other binary bytes, or text in neither encoding.
 */
export async function fileEncoding(language: Language, file: ReceivedFile): Promise<CsvImportEncoding> {
  const { head } = file;
  const found = sniff(head);
  if (found) throw refusal(language, 'notText', { type: TYPE_LABEL[found.type] ?? found.type });
  const utf16 = head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
  if (utf16) throw refusal(language, 'encoding');
  if (head.includes(0)) throw refusal(language, 'notText', { type: translatorFor(language)('validation.import.binary') });
  if (file.utf8) return 'utf-8';
  if (await decodes(file.path, 'shift_jis')) return 'shift_jis';
  throw refusal(language, 'encoding');
}
