/**
 * Measures the JavaScript a page really loads: opens it in Debian's Chromium (no browser download),
 * records every script response and sums their gzip sizes (zlib level 9, bytes).
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
 * Runs each named scenario in a fresh browser context (empty cache and cookies) and returns the
 * scripts it loaded. A scenario opens its page and waits until the page is usable.
 */
export async function measureJs(scenarios: Record<string, (page: Page) => Promise<void>>): Promise<Record<string, JsLoad>> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const out: Record<string, JsLoad> = {};
  try {
    for (const [name, run] of Object.entries(scenarios)) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const loads: Promise<JsLoad>[] = [];
      page.on('response', (res) => {
        if (res.request().resourceType() !== 'script') return;
        loads.push(
          res.body().then(
            (body) => ({ files: 1, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }),
            () => ({ files: 0, raw: 0, gzip: 0 }),
          ),
        );
      });
      await run(page);
      const all = await Promise.all(loads);
      out[name] = all.reduce((a, b) => ({ files: a.files + b.files, raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { files: 0, raw: 0, gzip: 0 });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}
