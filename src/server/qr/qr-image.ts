/**
 * QR code images (001 7.5 advertisement, 7.8 shop member and halloween pass, 7.12 club, 7.13 class
 * QR mail), drawn by the `qrcode` package: error correction M, a 4-module quiet zone.
 */
import QRCode from 'qrcode';

const OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

/** A PNG (bytes) of the QR code of `text`, `width` pixels wide (default 320). Errors: text too long for a QR code. */
export async function qrPng(text: string, width = 320): Promise<Buffer> {
  return QRCode.toBuffer(text, { ...OPTIONS, type: 'png', width });
}

/** An SVG document of the QR code of `text`. Errors: text too long for a QR code. */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { ...OPTIONS, type: 'svg' });
}
