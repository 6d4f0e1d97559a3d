/**
 * The date-range presets of a generated list (001 9: today, last week, last month, last 3 months):
 * a preset narrows the news list to the rows created in its range; clearing it brings them back.
 */
import { expect, test } from './fixtures';
import { fillPath, getResource } from '../../src/shared/registry';
import { signInQuickly } from './helpers';

const CITY = 'kobe';
const news = getResource('news');

test('the presets are offered and 今日 keeps only what was created today', async ({ page }) => {
  await signInQuickly(page, 'operator', CITY);
  const res = await page.request.post(fillPath(news.api.create!.path, { city: CITY }), { data: { title: 'DATETEST today', description: 'd', attr: 'news' } });
  expect(res.status()).toBe(201);
  await page.goto(`/${CITY}/news`);
  const rows = page.locator('.ant-table tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  await page.getByPlaceholder('開始日').click();
  for (const preset of ['今日', '過去1週間', '過去1か月', '過去3か月']) await expect(page.getByText(preset, { exact: true })).toBeVisible();
  await page.getByText('過去1週間', { exact: true }).click();
  // The range is kept in the address as two Refine filters on the field (src/shared/list-query.ts).
  await expect.poll(() => decodeURIComponent(page.url())).toMatch(/\[field\]=create_at&[^&]*\[operator\]=gte/);
  await expect(rows.filter({ hasText: 'DATETEST today' })).toHaveCount(1);

  // A range in the past holds none of today's rows (an address in the form saved views and links
  // kept before: `<field>__from`/`<field>__to` filters).
  await page.goto(`/${CITY}/news?filters[0][field]=create_at__from&filters[0][operator]=gte&filters[0][value]=2001-01-01T00:00:00.000Z&filters[1][field]=create_at__to&filters[1][operator]=lte&filters[1][value]=2001-01-31T23:59:59.999Z`);
  await expect(page.locator('.ant-table-placeholder')).toBeVisible();
  await expect(page.getByPlaceholder('開始日')).toHaveValue('2001/01/01');

  await page.getByPlaceholder('開始日').click();
  await page.getByText('今日', { exact: true }).click();
  await expect(rows.filter({ hasText: 'DATETEST today' })).toHaveCount(1);
  // 今日 is the whole local day (the browser is in Asia/Tokyo): from its midnight to its last millisecond.
  const day = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Tokyo' }).format(new Date());
  const from = new Date(`${day}T00:00:00+09:00`).toISOString();
  const to = new Date(new Date(`${day}T00:00:00+09:00`).getTime() + 86_400_000 - 1).toISOString();
  await expect.poll(() => decodeURIComponent(page.url())).toContain(from);
  expect(decodeURIComponent(page.url())).toContain(to);
  await expect(page.getByPlaceholder('開始日')).toHaveValue(day.replace(/-/g, '/'));
});

test('the picker loads on first use and opens from the keyboard too', async ({ page }) => {
  await signInQuickly(page, 'operator', `/${CITY}/news`);
  await expect(page.locator('.ant-table tbody tr.ant-table-row').first()).toBeVisible();
  // Until somebody uses it, the filter is a stand-in: antd's picker is not on the page.
  const standIn = page.getByRole('textbox', { name: '期間' });
  await expect(standIn).toHaveAttribute('placeholder', '開始日 → 終了日');
  await expect(page.locator('.ant-picker')).toHaveCount(0);
  // Tabbing onto it changes nothing; Enter brings the picker, focused and open, with its presets.
  await standIn.focus();
  await expect(standIn).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('過去1週間', { exact: true })).toBeVisible();
  await expect(page.getByPlaceholder('開始日', { exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByText('過去1週間', { exact: true })).toBeHidden();
});
