/**
 * The same generated pages for other resources (scenes, events): the spec's required-field messages,
 * the detail page, and the event form's date-time widgets.
 */
import { expect, test } from './fixtures';
import { rowAction, screenshot, signInQuickly } from './helpers';

test('an empty scene says シーン名を入力してください。 and カテゴリーを入力してください。', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await page.getByTestId('side-menu').getByRole('link', { name: 'シーン', exact: true }).click();
  await expect(page).toHaveURL(/\/kobe\/scenes/);
  await page.getByRole('button', { name: '新規作成' }).click();
  await expect(page).toHaveURL(/\/kobe\/scenes\/create$/);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('シーン名を入力してください。')).toBeVisible();
  await expect(page.getByText('カテゴリーを入力してください。')).toBeVisible();
  await expect(page).toHaveURL(/\/kobe\/scenes\/create$/);
});

test('a news item opens in its detail page with translated labels', async ({ page }) => {
  await signInQuickly(page, 'operator', '/kobe/news');
  await rowAction(page.locator('.ant-table-row').first(), '詳細');
  await expect(page).toHaveURL(/\/kobe\/news\/show\/\d+$/);
  await expect(page.getByRole('heading', { name: 'ニュース：詳細' })).toBeVisible();
  await expect(page.getByText('ニュース区分')).toBeVisible();
  await screenshot(page, 'show');
});

test('the event form has date-time fields and the events list shows dates', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await page.getByTestId('side-menu').getByRole('link', { name: 'イベント', exact: true }).click();
  await expect(page.getByRole('columnheader', { name: '開始日時' })).toBeVisible();
  await page.getByRole('button', { name: '新規作成' }).click();
  await expect(page.locator('#root_start_date')).toBeVisible();
  await expect(page.locator('#root_end_date')).toBeVisible();
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('タイトルを入力してください。')).toBeVisible();
  await expect(page.getByText('日時を入力してください。').first()).toBeVisible();
  await screenshot(page, 'event-form');
});

test('below 1024 px the sidebar starts closed and the toggle opens it', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await signInQuickly(page, 'operator', '/kobe/news');
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  const sider = page.locator('.ant-layout-sider');
  await expect.poll(async () => (await sider.boundingBox())?.width).toBe(0);
  await screenshot(page, 'list-mobile');
  await page.getByRole('button', { name: 'メニューの開閉' }).click();
  await expect.poll(async () => (await sider.boundingBox())?.width).toBeGreaterThan(100);
  await page.getByTestId('side-menu').getByRole('link', { name: 'イベント', exact: true }).click();
  await expect(page).toHaveURL(/\/kobe\/event/);
  await expect.poll(async () => (await sider.boundingBox())?.width).toBe(0);
});
