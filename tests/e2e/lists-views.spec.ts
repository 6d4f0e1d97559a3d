/**
 * Saved views of a list (docs/architecture.md 'Beyond the spec'): the columns shown, the search, the sort and the page size of the
 * news list saved under a name on the server, and put back when the user signs out, signs in again
 * and opens the list without query parameters.
 */
import { expect, test } from './fixtures';
import { fillPath, getResource } from '../../src/shared/registry';
import { clickInPopup, logOut, signIn, signInQuickly } from './helpers';

const CITY = 'kobe';
const news = getResource('news');

test('a saved view comes back after signing out and in', async ({ page }) => {
  await signInQuickly(page, 'operator', CITY);
  for (const title of ['VIEWTEST-b', 'VIEWTEST-a', 'VIEWTEST-c']) {
    const res = await page.request.post(fillPath(news.api.create!.path, { city: CITY }), { data: { title, description: 'view', attr: 'news' } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await page.goto(`/${CITY}/news`);
  const table = page.locator('.ant-table');
  await expect(table.getByRole('columnheader', { name: '種別' })).toBeVisible();

  // Narrow, sort by title ascending, drop a column.
  await page.getByRole('searchbox', { name: '検索' }).fill('VIEWTEST');
  await page.getByRole('button', { name: '検索' }).click();
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(3);
  await table.getByRole('columnheader', { name: 'タイトル' }).click();
  await expect(table.locator('tbody tr.ant-table-row').first()).toContainText('VIEWTEST-a');
  await page.getByTestId('column-chooser').click();
  await clickInPopup(page.locator('.ant-select-item-option', { hasText: '種別' }));
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: '種別' })).toHaveCount(0);

  await page.getByRole('button', { name: '表示を登録' }).click();
  await page.getByLabel('表示の名前').fill('タイトル順');
  await page.getByRole('button', { name: /^OK$/ }).click();
  await expect(page.getByText('表示を保存しました。')).toBeVisible();

  // Sign out, sign in again, open the list plainly.
  await logOut(page);
  await signIn(page, 'operator');
  await page.waitForURL(/\/(city|kobe\/dashboard)$/);
  await page.goto(`/${CITY}/news`);
  await expect(page.getByTestId('saved-views')).toContainText('タイトル順');
  await expect(page.getByRole('searchbox', { name: '検索' })).toHaveValue('VIEWTEST');
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(3);
  await expect(table.locator('tbody tr.ant-table-row').first()).toContainText('VIEWTEST-a');
  await expect(table.getByRole('columnheader', { name: '種別' })).toHaveCount(0);
  await expect(page).toHaveURL(/search/);

  // The standard view puts everything back.
  await page.getByTestId('saved-views').locator('.ant-select-selector').click();
  await clickInPopup(page.locator('.ant-select-item-option', { hasText: '標準の表示' }));
  await expect(table.getByRole('columnheader', { name: '種別' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: '検索' })).toHaveValue('');

  // Leave the operator's news list as other specs expect it: no saved view.
  const views = (await (await page.request.get(`/${CITY}/api/saved-views/`, { params: { resource: 'news' } })).json()) as { content: Array<{ id: number }> };
  for (const v of views.content) expect((await page.request.delete(`/${CITY}/api/saved-views/${v.id}/`)).status()).toBeLessThan(300);
});
