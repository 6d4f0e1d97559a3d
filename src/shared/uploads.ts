/**
 * Upload limits of 001 9 (Text and file limits; 000 5 Files), one definition for the console's checks
 * before sending (src/console/resources/upload.ts) and the server's refusals (src/server/files/file-routes.ts).
 */

/** The kinds of stored files. */
export type FileKind = 'image' | 'pdf';

/** Largest image: 15,728,640 bytes (15 MB). */
export const IMAGE_MAX_BYTES = 15_728_640;
/** Most pixels (width × height) of an image. */
export const IMAGE_MAX_PIXELS = 178_956_970;
/** Largest PDF: 40,000,000 bytes (also the body limit of the upload call). */
export const PDF_MAX_BYTES = 40_000_000;
/** Accepted image extensions (the server judges the bytes, the console the name). */
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif'] as const;

/** Largest size of a file kind, in bytes. */
export function maxBytes(kind: FileKind): number {
  return kind === 'image' ? IMAGE_MAX_BYTES : PDF_MAX_BYTES;
}
