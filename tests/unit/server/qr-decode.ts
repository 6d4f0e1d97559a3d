/**
 * Decoding QR codes in tests: a PNG with `pngjs` + `jsqr`; an SVG of the `qrcode` package (one path of
 * horizontal strokes `M x y.5h n…`) rasterised here at 4 px per module, then `jsqr`.
 */
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** The text of the QR code in PNG `bytes`, or null. */
export function decodePng(bytes: Buffer): string | null {
  const png = PNG.sync.read(bytes);
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

/** The text of the QR code in an SVG of the `qrcode` package, or null. */
export function decodeSvg(svg: string): string | null {
  const size = Number(/viewBox="0 0 (\d+) (\d+)"/.exec(svg)?.[1]);
  const d = /<path[^>]*stroke="#000000"[^>]*d="([^"]+)"/.exec(svg)?.[1] ?? '';
  const scale = 4;
  const w = size * scale;
  const pixels = new Uint8ClampedArray(w * w * 4).fill(255);
  let x = 0;
  let y = 0;
  for (const [, cmd, a, b] of d.matchAll(/([MmHhVv])\s*(-?[\d.]+)(?:[\s,]+(-?[\d.]+))?/g)) {
    const n = Number(a);
    if (cmd === 'M' || cmd === 'm') {
      x = cmd === 'M' ? n : x + n;
      y = cmd === 'M' ? Number(b) : y + Number(b);
    } else if (cmd === 'h' || cmd === 'H') {
      const to = cmd === 'h' ? x + n : n;
      const row = Math.floor(y);
      for (let mx = Math.min(x, to); mx < Math.max(x, to); mx++)
        for (let py = row * scale; py < (row + 1) * scale; py++)
          for (let px = mx * scale; px < (mx + 1) * scale; px++) pixels.fill(0, (py * w + px) * 4, (py * w + px) * 4 + 3);
      x = to;
    }
  }
  return jsQR(pixels, w, w)?.data ?? null;
}
