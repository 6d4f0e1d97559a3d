/**
 * Accessibility (docs/architecture.md 'Beyond the spec'): axe, every rule, finds no serious or critical violation on the
 * login, an open page, city, list, form and show pages (the dashboard, statistics, map, chat and import pages in their own specs); the list's controls are reached with the keyboard and show a visible focus.
 */
import { expect, test, type Page } from './fixtures';
import { fillPath, getResource } from '../../src/shared/registry';
import { expectNoSeriousViolation, logOut, openLogin, signIn } from './helpers';

const CITY = 'kobe';
const news = getResource('news');

test('login, city, list, form and show pages have no serious or critical axe violation', async ({ page }) => {
  await openLogin(page);
  await expectNoSeriousViolation(page, 'login');
  await page.goto('/forgot-password');
  await expect(page.getByRole('button', { name: /送信/ })).toBeVisible();
  await expectNoSeriousViolation(page, 'open page (forgot password)');

  await signIn(page, 'operator');
  await expect(page).toHaveURL(/\/city$/);
  await expect(page.getByRole('button', { name: '神戸市' })).toBeVisible();
  await expectNoSeriousViolation(page, 'city');

  await scanCityPages(page, '');
});

/** Scans the list, form and show pages of a news row made for it (`mode` names them in failures). */
async function scanCityPages(page: Page, mode: string): Promise<void> {
  const res = await page.request.post(fillPath(news.api.create!.path, { city: CITY }), { data: { title: 'A11YTEST', description: 'axe', attr: 'news' } });
  const id = (await res.json()).id as number;
  await page.goto(`/${CITY}/news`);
  await expect(page.locator('.ant-table tbody tr.ant-table-row').first()).toBeVisible();
  await expectNoSeriousViolation(page, `${mode}list`);

  await page.goto(`/${CITY}/news/create`);
  await expect(page.getByLabel('タイトル')).toBeVisible();
  await expectNoSeriousViolation(page, `${mode}form`);

  await page.goto(`/${CITY}/news/show/${id}`);
  await expect(page.getByText('A11YTEST').first()).toBeVisible();
  await expectNoSeriousViolation(page, `${mode}show`);
}

test('the same pages in dark mode, switched on through the top bar', async ({ page }) => {
  await signIn(page, 'operator');
  await expect(page).toHaveURL(/\/city$/);
  await page.getByRole('button', { name: '神戸市' }).click();
  await expect(page).toHaveURL(/\/kobe\/dashboard$/);
  await page.getByTestId('theme-picker').click();
  await page.getByTestId('dark-mode').click();
  await expect(page.getByTestId('dark-mode')).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-layout').first()).toHaveCSS('background-color', 'rgb(0, 0, 0)');

  await scanCityPages(page, 'dark ');

  // The focus outline stands out on dark surfaces too (WCAG 1.4.11, 3:1): the dark ring colour.
  await page.goto(`/${CITY}/news`);
  const search = page.getByRole('searchbox', { name: '検索' });
  await search.focus();
  // antd's inputs animate their colours (0.2 s): the ring is read until it has settled.
  const ring = () =>
    search.evaluate((el) => {
      const box = el.closest('.ant-select, .ant-picker, .ant-input-affix-wrapper, .ant-checkbox, .ant-radio') ?? el;
      const style = getComputedStyle(box);
      return `${style.outlineStyle} ${style.outlineColor}`;
    });
  await expect.poll(ring).toBe('solid rgb(105, 177, 255)');

  await page.goto('/city');
  await expect(page.getByRole('button', { name: '神戸市' })).toBeVisible();
  await expectNoSeriousViolation(page, 'dark city');

  await page.goto(`/${CITY}/dashboard`);
  await logOut(page);
  await expectNoSeriousViolation(page, 'dark login');
});

test('the list is worked with the keyboard, the focus always visible', async ({ page }) => {
  await signIn(page, 'operator');
  await expect(page).toHaveURL(/\/city$/);
  await page.goto(`/${CITY}/news`);
  await expect(page.locator('.ant-table tbody tr.ant-table-row').first()).toBeVisible();
  const search = page.getByRole('searchbox', { name: '検索' });
  await search.focus();
  // Tab through the toolbar: every stop is a control with a visible outline or focus ring.
  const seen: string[] = [];
  for (let i = 0; i < 16; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      // The outline is on the element, or for antd's composite inputs on their wrapper.
      const box = el.closest('.ant-select, .ant-picker, .ant-input-affix-wrapper, .ant-checkbox, .ant-radio') ?? el;
      const style = getComputedStyle(box);
      const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
      return { name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName, visible: ring };
    });
    expect(info, `tab stop ${i + 1}`).not.toBeNull();
    expect(info!.visible, `focus of ${info!.name} is visible`).toBe(true);
    seen.push(info!.name);
  }
  expect(seen.join(' ')).toMatch(/CSV/);
  expect(seen.join(' ')).toMatch(/表示を登録/);
});
