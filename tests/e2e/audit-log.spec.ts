/**
 * The Administrator's audit log (docs/architecture.md 'Audit log'): the generated list of the
 * `audit_log` resource shows the sign-in just made and a news row written, a category chosen in its
 * column header narrows the list (and the address), and axe finds nothing serious on it.
 */
import { expect, test } from './fixtures';
import { clickInPopup, expectNoSeriousViolation, screenshot, signInQuickly } from './helpers';

test('the Administrator reads who did what: a news row written, the sign-ins, narrowed to security events', async ({ page }) => {
  const made = await page.request.post('/default/api/login', { data: { username: 'operator', password: 'demo1234' } });
  expect(made.status()).toBe(200);
  const news = await page.request.post('/kobe/api/city/admin-news/', { data: { title: '監査ログに残る記事', description: 'x', attr: 'news' } });
  expect(news.status()).toBe(201);
  const id = ((await news.json()) as { id: number }).id;

  await signInQuickly(page, 'administrator', '/kobe/audit-log');
  await expect(page.getByRole('heading', { name: '監査ログ' })).toBeVisible();
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  // newest first: the Administrator's own sign-in, then the Operator's news row
  await expect(rows.first()).toContainText('セキュリティ');
  await expect(rows.first()).toContainText('administrator');
  const written = rows.filter({ hasText: 'データの変更' }).filter({ hasText: String(id) }).first();
  await expect(written).toContainText('operator');
  await expect(written).toContainText('news');

  // the category's filter in its column header
  await page.locator('.ant-table-thead th').filter({ hasText: '分類' }).locator('.ant-table-filter-trigger').click();
  await clickInPopup(page.locator('.ant-table-filter-dropdown .ant-dropdown-menu-item').filter({ hasText: 'セキュリティ' }));
  await page.locator('.ant-table-filter-dropdown').getByRole('button', { name: /OK/ }).click();
  await expect(page).toHaveURL(/category/);
  await expect(rows.filter({ hasText: 'データの変更' })).toHaveCount(0);
  await expect(rows.first()).toContainText('セキュリティ');
  // axe reads the list as a user sees it: once the filter's popup has finished closing (its radio
  // buttons, still fading out, would be read as part of the page).
  await expect(page.locator('.ant-table-filter-dropdown')).toBeHidden();
  // A hovered row (grey) with its main action's link: the link still reads at 4.5:1 (a11y-theme.ts).
  await rows.nth(1).hover();
  await expectNoSeriousViolation(page, 'audit log list');
  await screenshot(page, 'audit-log');
});
