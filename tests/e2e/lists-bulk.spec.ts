/**
 * Bulk selection and delete on a generated list (docs/architecture.md 'Beyond the spec'): the confirmation names the count and the
 * city's Japanese name, the deletes go through the contract's delete call, a row that cannot be
 * deleted is reported and stays selected, the list reloads; a role that may not delete sees no
 * selection at all.
 */
import { expect, test } from './fixtures';
import { fillPath, getResource } from '../../src/shared/registry';
import { signInQuickly } from './helpers';

const CITY = 'kobe';
const news = getResource('news');

test('bulk delete asks with the count and 神戸市, deletes, reports a failure and reloads', async ({ page }) => {
  await signInQuickly(page, 'operator', CITY);
  const ids: number[] = [];
  for (const title of ['BULKTEST-1', 'BULKTEST-2', 'BULKTEST-3']) {
    const res = await page.request.post(fillPath(news.api.create!.path, { city: CITY }), { data: { title, description: 'bulk', attr: 'news' } });
    expect(res.status()).toBe(201);
    ids.push((await res.json()).id as number);
  }
  await page.goto(`/${CITY}/news?filters[0][field]=search&filters[0][operator]=contains&filters[0][value]=BULKTEST`);
  const rows = page.locator('.ant-table tbody tr.ant-table-row');
  await expect(rows).toHaveCount(3);
  for (const id of ids) await page.getByRole('checkbox', { name: `行を選択 ${id}` }).check();
  await expect(page.getByTestId('bulk-delete')).toHaveText(/（3）/);

  // Someone else deletes one of them meanwhile: that one fails, and says so.
  const gone = await page.request.delete(fillPath(news.api.delete!.path, { city: CITY, id: ids[0] }));
  expect(gone.status()).toBe(204);

  await page.getByTestId('bulk-delete').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('神戸市のニュース 3件を削除してもよろしいですか？');
  await dialog.getByRole('button', { name: '削除' }).click();
  await expect(page.getByText('2件を削除しました。')).toBeVisible();
  await expect(page.getByText(/1件を削除できませんでした：/)).toBeVisible();
  await expect(rows).toHaveCount(0);
  // The failed one stays selected (nothing silently dropped from the user's choice).
  await expect(page.getByTestId('bulk-delete')).toHaveText(/（1）/);
  for (const id of ids.slice(1)) {
    expect((await page.request.get(fillPath(news.api.show!.path, { city: CITY, id }))).status()).toBe(404);
  }
});

test('a role that may not delete gets no row selection', async ({ page }) => {
  await signInQuickly(page, 'president', `/${CITY}/news`);
  await expect(page.locator('.ant-table tbody tr.ant-table-row').first()).toBeVisible();
  await expect(page.locator('.ant-table-selection-column')).toHaveCount(0);
  await expect(page.getByTestId('bulk-delete')).toHaveCount(0);
});
