/**
 * Uploads of `x-upload` fields (000 5 Files; 001 9): the client-side checks (images jpg, jpeg, png,
 * gif up to 15,728,640 bytes; PDFs up to 40,000,000 bytes; at most `maxItems` files per field) and
 * the call: `POST /{city}/api/files/?kind=image|pdf&name=<file name>` with the raw bytes as
 * application/octet-stream, answered 201 `{url, kind, bytes, width?, height?}`. The limits are the
 * server's (src/shared/uploads.ts). XMLHttpRequest (not fetch) for upload progress
 * (`postWithProgress`, also the CSV import's), sent through the console's one 401 rule
 * (`sendWithRefresh` of ../providers/http.ts) and its error messages.
 */
import { isListField } from '@/shared/field-types';
import type { FieldSchema } from '@/shared/registry';
import { IMAGE_EXTENSIONS, maxBytes, type FileKind } from '@/shared/uploads';
import { answerError, networkError, sendWithRefresh } from '../providers/http';
import { currentLanguage } from '../i18n';

export type UploadKind = NonNullable<FieldSchema['x-upload']>['kind'];
export type { FileKind };

/** The answer of the upload call. */
export interface UploadedFile {
  url: string;
  kind: FileKind;
  bytes: number;
  width?: number;
  height?: number;
}

/** A refusal: an i18n key and its values. */
export interface UploadProblem {
  key: string;
  params: Record<string, unknown>;
}

/** The kind of a file by its name's extension, or null when it is not an accepted one. */
export function fileKindOf(name: string): FileKind | null {
  const ext = name.toLowerCase().split('.').at(-1) ?? '';
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(ext)) return 'image';
  if (ext === 'pdf') return 'pdf';
  return null;
}

/** The file kinds a field accepts. */
export function acceptedKinds(kind: UploadKind): FileKind[] {
  return kind === 'image-or-pdf' ? ['image', 'pdf'] : [kind];
}

/** The `accept` attribute of the file input of a field. */
export function acceptAttribute(kind: UploadKind): string {
  return acceptedKinds(kind)
    .flatMap((k) => (k === 'image' ? IMAGE_EXTENSIONS.map((e) => `.${e}`) : ['.pdf']))
    .join(',');
}

/** How many files a field holds at most (1 for a single string field). */
export function maxFiles(prop: Pick<FieldSchema, 'x-upload' | 'type'>): number {
  return isListField(prop) ? (prop['x-upload']?.maxItems ?? Number.POSITIVE_INFINITY) : 1;
}

/** Megabytes with one decimal, for messages ('15.0'). */
export function megabytes(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1);
}

/**
 * Checks one file before it is sent: an accepted type for the field and within its kind's size.
 * Answers the file's kind, or the problem (`upload.badType`, `upload.tooLarge`).
 */
export function checkFile(file: { name: string; size: number }, kind: UploadKind): { ok: true; kind: FileKind } | { ok: false; problem: UploadProblem } {
  const fileKind = fileKindOf(file.name);
  if (!fileKind || !acceptedKinds(kind).includes(fileKind)) {
    return { ok: false, problem: { key: 'upload.badType', params: { name: file.name, types: acceptAttribute(kind).replaceAll('.', '').replaceAll(',', ', ') } } };
  }
  const max = maxBytes(fileKind);
  if (file.size > max) return { ok: false, problem: { key: 'upload.tooLarge', params: { name: file.name, max: megabytes(max) } } };
  if (file.size === 0) return { ok: false, problem: { key: 'upload.empty', params: { name: file.name } } };
  return { ok: true, kind: fileKind };
}

/** Whether `adding` more files still fit a field holding `current` of at most `max`; else the problem. */
export function checkCount(current: number, adding: number, max: number): UploadProblem | null {
  return current + adding > max ? { key: 'upload.tooMany', params: { max } } : null;
}

/** The path of the upload call. */
export function uploadPath(city: string, kind: FileKind, name: string): string {
  const q = new URLSearchParams({ kind, name });
  return `/${encodeURIComponent(city)}/api/files/?${q.toString()}`;
}

/** How `postWithProgress` sends its body. */
export interface ProgressPostOptions {
  /** The body's Content-Type (none for a FormData: the browser writes the multipart boundary). */
  contentType?: string;
  /** Bytes of the body sent so far and in all, as the browser reports them while it sends. */
  onProgress?: (loaded: number, total: number) => void;
  /** Aborts the request, also while the body is still being sent. */
  signal?: AbortSignal;
}

/**
 * One POST of `body` (raw bytes or a multipart form) by XMLHttpRequest, which reports upload
 * progress where fetch does not, with the console's headers (JSON answers, `Accept-Language`) and
 * its cookies. Answers the status and the body text, whatever the status: wrap it in
 * `sendWithRefresh` for the console's one 401 rule and read a refusal with `answerError`.
 * Errors: `networkError()` when no answer came; a DOMException `AbortError` when `signal` aborts.
 */
export function postWithProgress(path: string, body: Blob | FormData, { contentType, onProgress, signal }: ProgressPostOptions = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    if (contentType) xhr.setRequestHeader('Content-Type', contentType);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(e.loaded, e.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(networkError());
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/**
 * Uploads one file of `kind` in `city`, reporting progress (0–100). Answers the stored file.
 * A 401 is refreshed and sent again like every call (`sendWithRefresh`).
 * Errors: `ApiRequestError` with the server's message when it refuses (400/413/415: size, type,
 * pixels), the catalogue's texts otherwise (`answerError`); status 0 when no answer came.
 */
export async function uploadFile(city: string, file: File, kind: FileKind, onProgress: (percent: number) => void, signal?: AbortSignal): Promise<UploadedFile> {
  const path = uploadPath(city, kind, file.name);
  const percent = (loaded: number, total: number) => onProgress(Math.min(99, Math.round((loaded / total) * 100)));
  const answer = await sendWithRefresh(() => postWithProgress(path, file, { contentType: 'application/octet-stream', onProgress: percent, signal }));
  if (answer.status < 200 || answer.status >= 300) throw answerError(answer.status, answer.text);
  onProgress(100);
  return JSON.parse(answer.text) as UploadedFile;
}
