/**
 * Changing an entity in the console (docs/architecture.md 'Changing an entity'), in Chromium:
 * - a scene stored under an older schema (a name of 70 characters, no category: the row the server
 *   answers is replaced by that one on its way to the page, since the test cannot write the server's
 *   database beside it) opens in its form with the failing fields marked and their messages shown;
 *   the operator corrects them and saves, and the server stores the corrected row;
 * - the Administrator's データ点検 page checks the stored rows (the demo data passes).
 */
import { expect, test } from './fixtures';
import { screenshot, signInQuickly, spaGoto } from './helpers';

test('a row that fails its schema opens with its failing fields marked, and is corrected and saved', async ({ page }) => {
  await signInQuickly(page, 'administrator', '/kobe/dashboard');
  const made = await page.request.post('/kobe/api/scene/', { data: { name: '点検前のシーン', category: '食べる' } });
  expect(made.status(), await made.text()).toBe(201);
  const id = ((await made.json()) as { id: number }).id;
  // The row as an older release stored it.
  await page.route(`**/kobe/api/scene/${id}/`, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const res = await route.fetch();
    const { category: _category, ...row } = (await res.json()) as Record<string, unknown>;
    await route.fulfill({ response: res, json: { ...row, name: 'あ'.repeat(70) } });
  });
  await spaGoto(page, `/kobe/scenes/edit/${id}`);
  await expect(page.getByText('このデータは現在の入力ルールを満たしていません。')).toBeVisible();
  await expect(page.getByText('名前は64文字以内で入力してください。')).toBeVisible();
  await expect(page.getByText('カテゴリーを入力してください。')).toBeVisible();
  await screenshot(page, 'data-check-form');

  await page.locator('#root_name').fill('点検後のシーン');
  await expect(page.getByText('名前は64文字以内で入力してください。')).toHaveCount(0);
  await page.locator('#root_category').fill('遊ぶ');
  await expect(page.getByText('カテゴリーを入力してください。')).toHaveCount(0);
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(`/kobe/api/scene/${id}/`));
  await page.getByRole('button', { name: '保存' }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText('保存しました。')).toBeVisible();
  const stored = await page.request.get(`/kobe/api/scene/${id}/`);
  expect(await stored.json()).toMatchObject({ id, name: '点検後のシーン', category: '遊ぶ' });
});

test('the Administrator\'s データ点検 page checks the stored rows', async ({ page }) => {
  await signInQuickly(page, 'administrator', '/kobe/data-check');
  await expect(page.getByRole('heading', { name: 'データ点検' })).toBeVisible();
  await expect(page.getByText('すべてのデータが現在の入力ルールを満たしています。')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/種類のデータ、[\d,]+件を点検しました/)).toBeVisible();
  await screenshot(page, 'data-check-page');
});
