/**
 * A declared cross-field rule of 000 §5 in the generated form, in Chromium: a job whose salary is a
 * range needs its upper bound (draft-07 if/then carried into the form), with the same message the
 * server answers; no request leaves the form while it is broken.
 */
import { expect, test } from './fixtures';
import { clickInPopup, screenshot, signInQuickly } from './helpers';

const MESSAGE = '給与を範囲で指定する場合は上限を入力してください。';

test('a job with a salary range and no upper bound shows the rule message and sends nothing', async ({ page }) => {
  await signInQuickly(page, 'operator', '/kobe/work/create');
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/work/recruitment/')) posts.push(r.url());
  });
  await page.locator('.ant-select', { has: page.locator('#root_salary_range') }).click();
  await clickInPopup(page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^幅あり$/ }));
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText(MESSAGE)).toBeVisible();
  await screenshot(page, 'job-salary-range');

  await page.locator('.ant-select', { has: page.locator('#root_salary_range') }).click();
  await clickInPopup(page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^幅なし$/ }));
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText(MESSAGE)).toHaveCount(0);
  expect(posts).toEqual([]);
});
