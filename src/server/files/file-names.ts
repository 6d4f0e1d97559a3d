/**
 * Names and URLs of uploaded files (000 5 Files; 001 9 Text and file limits): a file is stored as
 * `<DATA_DIR>/files/<32 hex digits>.<ext>` and served at `/files/<name>`.
 */

/** The extensions of the accepted kinds, by detected type. */
export const EXTENSIONS = { jpeg: 'jpg', png: 'png', gif: 'gif', pdf: 'pdf' } as const;
export type DetectedType = keyof typeof EXTENSIONS;

/** The content types served, by extension. */
export const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', pdf: 'application/pdf' };

/** A stored file name: 32 lower-case hex digits and one of the extensions. */
export const FILE_NAME = /^[0-9a-f]{32}\.(?:jpg|png|gif|pdf)$/;

/**
 * A stored file kept for the server only, never served (`GET /files/` and `files:copy` take
 * FILE_NAME only): an uploaded CSV file while its import runs (src/server/import/import-file.ts).
 */
export const IMPORT_FILE_NAME = /^import-[0-9a-f]{32}\.csv$/;

/** The URL path of a stored file. */
export function fileUrl(name: string): string {
  return `/files/${name}`;
}

/**
 * The stored file name a field value points at: `/files/<name>` or an absolute http(s) URL with that
 * path; null for anything else.
 */
export function fileNameOfUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  let path = value;
  if (/^https?:\/\//i.test(value)) {
    try {
      path = new URL(value).pathname;
    } catch {
      return null;
    }
  }
  const m = /^\/files\/([^/?#]+)$/.exec(path);
  return m && FILE_NAME.test(m[1]) ? m[1] : null;
}
