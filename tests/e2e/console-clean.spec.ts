/**
 * The console says nothing in the browser's console: no `console.error`, no `console.warn` and no
 * uncaught error on the login, city, dashboard, list, form and show pages, walked as an Operator
 * would (sign-in form, city choice, sidebar, the list's create button, a row's detail).
 * Also the login form's own rules (000 5), now that it is plain antd inputs.
 */
import { expect, test } from './fixtures';
import { openLogin, rowAction } from './helpers';

test('no console error or warning from the login page to a record’s detail; the login form says what is missing', async ({ page }) => {
  const said: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') said.push(`${m.type()} at ${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => said.push(`uncaught at ${page.url()}: ${e.message}`));

  await openLogin(page);
  await page.getByRole('button', { name: 'ログイン' }).click();
  await expect(page.getByText('ユーザー名を入力してください。')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await expect(page.getByLabel('ユーザー名')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('ユーザー名').fill('operator');
  await expect(page.getByText('ユーザー名を入力してください。')).toHaveCount(0);
  await page.getByLabel('パスワード').fill('a b');
  await page.getByRole('button', { name: 'ログイン' }).click();
  await expect(page.getByText('空白を含まない8文字以上で入力してください。')).toBeVisible();
  await page.getByLabel('パスワード').fill('demo1234');
  await page.getByRole('button', { name: 'ログイン' }).click();

  await expect(page).toHaveURL(/\/city$/);
  await page.getByRole('button', { name: '神戸市' }).click();
  await expect(page).toHaveURL(/\/kobe\/dashboard$/);
  await expect(page.getByTestId('current-user')).toBeVisible();

  await page.getByRole('menuitem', { name: 'ニュース' }).first().click();
  await expect(page).toHaveURL(/\/kobe\/news/);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();

  await page.getByRole('button', { name: '新規作成' }).click();
  await expect(page).toHaveURL(/\/kobe\/news\/create$/);
  await expect(page.getByLabel('タイトル')).toBeVisible();

  await page.goBack();
  await expect(rows.first()).toBeVisible();
  await rowAction(rows.first(), '詳細');
  await expect(page).toHaveURL(/\/kobe\/news\/show\/\d+$/);
  await expect(page.getByText('タイトル').first()).toBeVisible();
  // Whatever the last page does once it has settled.
  await page.waitForLoadState('networkidle');

  expect(said).toEqual([]);
});
