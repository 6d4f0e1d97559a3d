/**
 * `npm run screenshots`: takes the README's pictures again, `docs/images/dashboard.png` (kobe's
 * dashboard) and `docs/images/list.png` (kobe's news list), as the Operator of the demo data sees
 * them in Japanese, in Debian's Chromium at a 1,280 × 800 viewport (the viewport only, not the
 * whole page, so each PNG stays small). Runs the server as `npm start` does, on a new temporary
 * PGlite directory and a free loopback port (scripts/lib/console-server.ts), after making the
 * console's production build when it is stale; nothing is fetched beyond 127.0.0.1 (no map tiles).
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, expect } from '@playwright/test';
import { CHROME_FLAGS, CHROME_PATH } from './lib/lighthouse-audit';
import { ensureConsoleBuild, startConsoleServer } from './lib/console-server';

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'docs/images');

async function main(): Promise<void> {
  await ensureConsoleBuild(root);
  const server = await startConsoleServer(root);
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')) });
  try {
    await mkdir(outDir, { recursive: true });
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
    const page = await context.newPage();
    const signIn = await page.request.post('/default/api/login', { data: { username: 'operator', password: 'demo1234' } });
    if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()} ${await signIn.text()}`);

    // The dashboard once its figures and their sparklines are drawn (the demo statistics are a job
    // of the server's first seconds: reload until its figures are there).
    await expect(async () => {
      await page.goto('/kobe/dashboard');
      await expect(page.locator('[data-testid^="dashboard-figure-"]').first()).toBeVisible({ timeout: 10_000 });
      await expect(page.getByTestId('figure-sparkline').first().locator('[aria-label]').first()).toBeVisible({ timeout: 10_000 });
    }).toPass({ timeout: 120_000 });
    // The top bar's contact-us hint shows for a few seconds after the sign-in: not in the picture.
    await expect(page.getByText('お困りのときは右上の「お問い合わせ」')).toBeHidden({ timeout: 60_000 });
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: join(outDir, 'dashboard.png') });

    await page.goto('/kobe/news');
    await expect(page.getByRole('heading', { name: 'ニュース' })).toBeVisible();
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: join(outDir, 'list.png') });
    console.log(`docs/images/dashboard.png, docs/images/list.png (${server.url})`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
