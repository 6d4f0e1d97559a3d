/**
 * How much JavaScript the console loads (issue: the login page at most 350 KB gzip): every script
 * response is gzipped (level 9) and summed, for the login page and then for the news list.
 */
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { openLogin } from './helpers';

const LOGIN_BUDGET_KB = 350;

function recordScripts(page: Page): { take: () => Promise<{ files: number; gzipKB: number }> } {
  let pending: Array<Promise<number>> = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    pending.push(res.body().then((b) => gzipSync(b, { level: 9 }).length, () => 0));
  });
  return {
    take: async () => {
      const sizes = await Promise.all(pending);
      pending = [];
      return { files: sizes.length, gzipKB: Math.round(sizes.reduce((a, b) => a + b, 0) / 102.4) / 10 };
    },
  };
}

test('the login page loads at most 350 KB of JavaScript (gzip); the news list is measured', async ({ page }, info) => {
  await openLogin(page); // the first visit may wait for the build
  const recorder = recordScripts(page);
  await page.goto('/login');
  await expect(page.getByLabel('ユーザー名')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const login = await recorder.take();

  await page.getByLabel('ユーザー名').fill('operator');
  await page.getByLabel('パスワード').fill('demo1234');
  await page.getByRole('button', { name: 'ログイン' }).click();
  await page.getByRole('button', { name: '神戸市' }).click();
  await expect(page).toHaveURL(/\/kobe\/dashboard$/);
  await recorder.take();
  const list = recordScripts(page);
  await page.goto('/kobe/news');
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const news = await list.take();

  info.annotations.push({ type: 'js', description: `login ${login.gzipKB} KB gzip in ${login.files} files; news list (fresh load) ${news.gzipKB} KB gzip in ${news.files} files` });
  console.log(`JS loaded: login ${login.gzipKB} KB gzip (${login.files} files); news list page ${news.gzipKB} KB gzip (${news.files} files)`);
  expect(login.gzipKB).toBeLessThanOrEqual(LOGIN_BUDGET_KB);
});
