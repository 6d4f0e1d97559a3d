/**
 * What an uploaded file really is, from its bytes (000 5 Files; 001 9 Text and file limits): the
 * magic number of JPEG, PNG, GIF or PDF (the name and the declared content type are not trusted),
 * and for images the width and height read from the header alone (PNG IHDR, GIF logical screen, JPEG
 * start-of-frame marker). Pixels are never decoded, so a decompression bomb costs nothing to refuse.
 */
import type { DetectedType } from './file-names';

/** What the header of a file says. */
export interface Sniffed {
  type: DetectedType;
  kind: 'image' | 'pdf';
  /** Image size in pixels, or null when the header does not tell (a broken image). */
  width: number | null;
  height: number | null;
}

const SIGNATURES: Array<[DetectedType, number[]]> = [
  ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['jpeg', [0xff, 0xd8, 0xff]],
  ['gif', [0x47, 0x49, 0x46, 0x38]], // GIF8, then 7a or 9a
  ['pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
];

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  return bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
}

function pngSize(b: Buffer): [number, number] | null {
  // 8-byte signature, then the IHDR chunk: length (4), "IHDR", width (4, big-endian), height (4).
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

function gifSize(b: Buffer): [number, number] | null {
  if (b.length < 10 || !/^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return null;
  return [b.readUInt16LE(6), b.readUInt16LE(8)];
}

/** SOFn markers that carry the frame size (not DHT C4, JPG C8, DAC CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(b: Buffer): [number, number] | null {
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0-7, SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or start of scan before any frame
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (i + 9 > b.length) return null;
      return [b.readUInt16BE(i + 7), b.readUInt16BE(i + 5)]; // precision (1), height (2), width (2)
    }
    i += 2 + length;
  }
  return null;
}

/** Reads the type and (for images) the size of `bytes`, or null when it is none of JPEG, PNG, GIF, PDF. */
export function sniff(bytes: Buffer): Sniffed | null {
  const found = SIGNATURES.find(([, sig]) => startsWith(bytes, sig));
  if (!found) return null;
  const type = found[0];
  if (type === 'gif' && !/^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return null;
  if (type === 'pdf') return { type, kind: 'pdf', width: null, height: null };
  const size = type === 'png' ? pngSize(bytes) : type === 'gif' ? gifSize(bytes) : jpegSize(bytes);
  return { type, kind: 'image', width: size?.[0] ?? null, height: size?.[1] ?? null };
}
