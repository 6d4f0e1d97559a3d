/**
 * Measures the JavaScript a page really loads: opens it in Debian's Chromium (playwright-core, no
 * browser download), records every script response and sums their gzip sizes (zlib level 9, bytes).
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';

export interface JsLoad {
  files: number;
  /** bytes as served */
  raw: number;
  /** bytes after gzip -9 */
  gzip: number;
}

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * Runs `steps` in a fresh browser context with the script recorder on and returns what was loaded
 * between `mark()` calls: `steps(page, mark)`; each `mark(name)` closes a measurement.
 */
export async function measureJs(steps: (page: Page, mark: (name: string) => void) => Promise<void>): Promise<Record<string, JsLoad>> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const out: Record<string, JsLoad> = {};
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    let current: Promise<JsLoad>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'script') return;
      current.push(
        res.body().then(
          (body) => ({ files: 1, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }),
          () => ({ files: 0, raw: 0, gzip: 0 }),
        ),
      );
    });
    const marks: Array<[string, Promise<JsLoad>[]]> = [];
    await steps(page, (name) => {
      marks.push([name, current]);
      current = [];
    });
    for (const [name, list] of marks) {
      const all = await Promise.all(list);
      out[name] = all.reduce((a, b) => ({ files: a.files + b.files, raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { files: 0, raw: 0, gzip: 0 });
    }
  } finally {
    await browser.close();
  }
  return out;
}
