/**
 * Draws the demo data's sample images and PDF (000 5 Files: JPEG/PNG images, PDFs) with Debian's
 * Chromium, into demo-files/ under the names the file store gives them: 32 hex digits (the MD5 of
 * the bytes) and the extension. Run once when a picture is added or changed (`npx tsx
 * scripts/make-demo-files.ts`), then put the printed names into the schemas' examples and
 * demo-files/README.md. Nothing is downloaded: gradients, circles and text in Noto CJK only.
 */
import { createHash } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROME_PATH } from './lib/lighthouse-audit';

const OUT = join(import.meta.dirname, '..', 'demo-files');

/** One picture: its purpose, size in CSS pixels, two gradient colours, a kanji in a circle, a big word and a small line. */
interface Picture { name: string; width: number; height: number; from: string; to: string; title: string; line: string; shape: string }

const PICTURES: Picture[] = [
  { name: 'event-festival', width: 640, height: 360, from: '#f97316', to: '#dc2626', title: '夏まつり', line: 'イベント · サンプル画像', shape: '祭' },
  { name: 'event-fireworks', width: 640, height: 360, from: '#1e3a8a', to: '#7c3aed', title: '花火大会', line: 'イベント · サンプル画像', shape: '花' },
  { name: 'shop-cafe', width: 640, height: 360, from: '#92400e', to: '#d97706', title: 'カフェ', line: '店舗 · サンプル画像', shape: '珈' },
  { name: 'shop-street', width: 640, height: 360, from: '#15803d', to: '#65a30d', title: '商店街', line: '店舗 · サンプル画像', shape: '店' },
  { name: 'coupon', width: 640, height: 360, from: '#db2777', to: '#f59e0b', title: 'クーポン', line: 'お得な情報 · サンプル画像', shape: '券' },
  { name: 'notice', width: 640, height: 360, from: '#0369a1', to: '#0891b2', title: 'お知らせ', line: '市からの情報 · サンプル画像', shape: '報' },
  { name: 'magazine-cover', width: 600, height: 840, from: '#0f766e', to: '#1d4ed8', title: '市民だより', line: '2027 春号 · サンプル表紙', shape: '誌' },
];

function html(p: Picture): string {
  return `<!doctype html><meta charset="utf-8"><style>
  html,body{margin:0;width:${p.width}px;height:${p.height}px;overflow:hidden}
  body{background:linear-gradient(135deg,${p.from},${p.to});font-family:'Noto Sans CJK JP',sans-serif;color:#fff;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:12px}
  .shape{font-size:${Math.round(Math.min(p.width, p.height) / 6)}px;line-height:1;border:4px solid #fff;border-radius:50%;padding:.3em;font-weight:700}
  h1{margin:0;font-size:${Math.round(Math.min(p.height / 7, p.width / 7))}px;letter-spacing:.08em;text-shadow:0 2px 6px rgba(0,0,0,.25)}
  p{margin:0;font-size:${Math.round(p.height / 18)}px;opacity:.9}
  .ring{position:absolute;border:6px solid rgba(255,255,255,.18);border-radius:50%}
  </style><div class="ring" style="width:${p.height}px;height:${p.height}px;left:-${p.height / 3}px;top:-${p.height / 3}px"></div>
  <div class="ring" style="width:${p.height / 2}px;height:${p.height / 2}px;right:-${p.height / 8}px;bottom:-${p.height / 8}px"></div>
  <div class="shape">${p.shape}</div><h1>${p.title}</h1><p>${p.line}</p>`;
}

const PDF_HTML = `<!doctype html><meta charset="utf-8"><style>body{font-family:'Noto Sans CJK JP',sans-serif;margin:48px}h1{color:#0369a1}</style>
<h1>サンプル資料</h1><p>このPDFはデモデータ用の見本です。実際の資料ではありません。</p><ul><li>対象：デモの店舗・市の担当者</li><li>作成：city console のデモデータ</li></ul>`;

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

const browser = await chromium.launch({ executablePath: CHROME_PATH });
try {
  for (const f of await readdir(OUT).catch(() => [] as string[])) if (/^[0-9a-f]{32}\./.test(f)) await rm(join(OUT, f));
  for (const p of PICTURES) {
    const page = await browser.newPage({ viewport: { width: p.width, height: p.height } });
    await page.setContent(html(p));
    const bytes = await page.screenshot({ type: 'jpeg', quality: 72 });
    await writeFile(join(OUT, `${md5(bytes)}.jpg`), bytes);
    console.log(`${p.name}\t${md5(bytes)}.jpg\t${p.width}×${p.height}\t${bytes.length} bytes`);
    await page.close();
  }
  const page = await browser.newPage();
  await page.setContent(PDF_HTML);
  const pdf = await page.pdf({ format: 'A4' });
  await writeFile(join(OUT, `${md5(pdf)}.pdf`), pdf);
  console.log(`document\t${md5(pdf)}.pdf\tA4\t${pdf.length} bytes`);
} finally {
  await browser.close();
}
