/**
 * The statistics page as an Operator of kobe uses it (000 2.2 special-voucher/statistic; 001 7.8
 * voucher statistics, 9 date-range presets, number and date formats): the last-month preset, the
 * headline figures with their change against the previous period, the charts (ECharts' aria
 * description), the table by period with its total row, all equal to the API's answer for the same
 * query, and the CSV export of that table; no console error. ECharts never loads on the login page or
 * a list. Screenshots at 1280 and 390 px, light and dark, go to /tmp/stat-*.png.
 */
import dayjs from 'dayjs';
import { readFile } from 'node:fs/promises';
import type { StatisticAnswer } from '../../src/shared/statistics';
import { expect, test, type Locator, type Page } from './fixtures';
import { clickInPopup, expectNoSeriousViolation, signInQuickly } from './helpers';

const NAME = 'voucher-usage';
/** The measures of voucher-usage as the page labels them, with their format. */
const MEASURES = [
  { key: 'total_money', label: '金額', yen: true },
  { key: 'total_user', label: '利用者数', yen: false },
  { key: 'count', label: '件数', yen: false },
  { key: 'points', label: 'ポイント', yen: false },
];

const number = (n: number) => n.toLocaleString('ja-JP', { maximumFractionDigits: 2 });
const shown = (n: number, yen: boolean) => (yen ? `¥${Math.round(n).toLocaleString('ja-JP')}` : number(n));

/** Today in Asia/Tokyo (the browser's time zone in these tests) as YYYY-MM-DD. */
function todayInTokyo(): string {
  return new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Tokyo' });
}

/** Collects console errors and uncaught errors of `page`. */
function watchErrors(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') said.push(`console.error at ${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => said.push(`uncaught at ${page.url()}: ${e.message}`));
  return said;
}

/** Clicks `item` in the range picker's panel once it has finished appearing. */
async function clickInPicker(item: Locator): Promise<void> {
  const panel = item.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-picker-dropdown ")][1]');
  await expect(panel).toHaveCount(1);
  await expect(panel).not.toHaveClass(/-(enter|appear|leave)\b/);
  await item.click();
}

/** Saves a screenshot of the whole page under /tmp once the fonts are in and the charts drawn. */
async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.fonts.ready);
  // ECharts grows its bars and lines in for a second after each drawing.
  await page.waitForTimeout(1_500);
  await page.screenshot({ path: `/tmp/stat-${name}.png`, fullPage: true });
}

test('an Operator reads the voucher statistics of the last month: figures, charts and table agree with the API, and the CSV holds the table', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  // From the dashboard on (the dashboard has its own tests): what the statistics page says.
  const said = watchErrors(page);

  // from the side menu's special-voucher group
  const menu = page.getByTestId('side-menu');
  await menu.getByText('特別商品券', { exact: true }).click();
  await menu.getByRole('link', { name: '商品券の集計', exact: true }).click();
  await expect(page).toHaveURL(/\/kobe\/special-voucher\/statistic$/);
  await expect(page.getByRole('heading', { name: '商品券の利用集計' })).toBeVisible();
  await expect(page.getByTestId('statistic-headline')).toBeVisible();

  // the last-month preset of the range picker (001 9): from the same day a month ago to today
  const end = todayInTokyo();
  const start = dayjs(end).subtract(1, 'month').format('YYYY-MM-DD');
  const answered = page.waitForResponse((r) => r.url().includes(`/kobe/api/statistics/${NAME}/?`) && r.url().includes(`start_date=${start}`) && r.url().includes(`end_date=${end}`));
  await page.getByTestId('statistics-page').getByPlaceholder('開始日').click();
  await clickInPicker(page.locator('.ant-picker-presets li', { hasText: '過去1か月' }));
  expect((await answered).status()).toBe(200);
  await expect(page.getByTestId('statistic-period')).toContainText(`${dayjs(start).format('YYYY年MM月DD日')} 〜 ${dayjs(end).format('YYYY年MM月DD日')}`);
  await expectNoSeriousViolation(page, 'statistics');

  // the API's answer for the same query, asked with the session
  const res = await page.request.get(`/kobe/api/statistics/${NAME}/`, { params: { start_date: start, end_date: end, interval: 'day', by: 'voucher' } });
  expect(res.status()).toBe(200);
  const api = (await res.json()) as StatisticAnswer;
  expect(api.series.length).toBe(dayjs(end).diff(dayjs(start), 'day') + 1);
  expect(api.totals.count, 'demo voucher uses in the last month').toBeGreaterThan(0);

  // headline figures: each total and its change against the previous period
  for (const m of MEASURES) {
    const figure = page.getByTestId(`statistic-figure-${m.key}`);
    await expect(figure.getByTestId('figure-value')).toHaveText(shown(api.totals[m.key], m.yen));
    const previous = api.previous[m.key];
    const change = previous ? Math.round(((api.totals[m.key] - previous) / previous) * 1000) / 10 : null;
    const text = change === null ? '前期間比 —' : `前期間比 ${change > 0 ? '+' : change < 0 ? '-' : '±'}${Math.abs(change).toFixed(1)}%`;
    await expect(figure.getByTestId('figure-change')).toHaveText(text);
    await expect(figure).toContainText(`前期間: ${shown(previous, m.yen)}`);
  }

  // the charts: ECharts' aria description names the chart and reads its values
  const timeChart = page.getByTestId('statistic-time-chart').locator('.echarts-for-react');
  await expect(timeChart).toHaveAttribute('role', 'img');
  await expect(timeChart).toHaveAttribute('aria-label', /これは「金額の推移」に関するチャートです。/);
  const first = api.series[0];
  await expect(timeChart).toHaveAttribute('aria-label', new RegExp(`${dayjs(first.period).format('YYYY/MM/DD')}のデータは${first.values.total_money}`));
  const byChart = page.getByTestId('statistic-by-chart').locator('.echarts-for-react');
  await expect(byChart).toHaveAttribute('aria-label', /これは「商品券別の金額」に関するチャートです。/);

  // the table by period: one row per day of the answer, then the total row
  const table = page.getByTestId('statistic-period-table');
  const rows = table.locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(api.series.length);
  for (const [i, s] of api.series.entries()) {
    const cells = [dayjs(s.period).format('YYYY/MM/DD'), ...MEASURES.map((m) => shown(s.values[m.key], m.yen))];
    await expect(rows.nth(i).locator('td')).toHaveText(cells);
  }
  await expect(table.getByTestId('statistic-total-row').locator('td')).toHaveText(['合計', ...MEASURES.map((m) => shown(api.totals[m.key], m.yen))]);
  // sorted by money, largest first (a second click on the header)
  const header = table.getByRole('columnheader', { name: '金額', exact: true });
  await header.click();
  await header.click();
  const largest = Math.max(...api.series.map((s) => s.values.total_money));
  await expect(rows.first().locator('td').nth(1)).toHaveText(shown(largest, true));

  // the CSV of the same query: UTF-8 with BOM, a row per day and the total row
  const pending = page.waitForEvent('download');
  await page.getByTestId('statistic-export').click();
  await clickInPopup(page.getByRole('menuitem', { name: 'CSV（UTF-8）' }));
  const file = await pending;
  expect(file.suggestedFilename()).toBe(`${NAME}_${start}_${end}.csv`);
  const bytes = await readFile((await file.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).trim().split(/\r?\n/);
  expect(lines).toHaveLength(api.series.length + 2);
  for (const m of MEASURES) expect(lines[0]).toContain(m.label);
  expect(lines.at(-1)).toMatch(/^"?合計"?,/);
  expect(lines.at(-1)).toContain(String(api.totals.count));

  // screenshots: 1280 and 390 px, light and dark; nothing wider than the window at 390 px
  await shot(page, 'light-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(timeChart).toHaveAttribute('aria-label', /金額の推移/);
  // The charts follow their container's new size (chart.tsx, a ResizeObserver) a moment after the window's.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'light-390');
  await page.getByTestId('statistic-headline').screenshot({ path: '/tmp/stat-light-390-headline.png' });
  await page.getByTestId('statistic-by-chart').screenshot({ path: '/tmp/stat-light-390-by-chart.png' });
  await page.evaluate(() => localStorage.setItem('theme-dark', '1'));
  await page.reload();
  await expect(page.getByTestId('statistic-headline')).toBeVisible();
  await expect(page.getByTestId('statistic-time-chart').locator('.echarts-for-react')).toHaveAttribute('aria-label', /金額の推移/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'dark-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'dark-1280');
  await page.evaluate(() => localStorage.removeItem('theme-dark'));

  expect(said).toEqual([]);
});

test('ECharts loads on a statistics route only: not on the login page, not on a list', async ({ page }) => {
  // Each script answer with the page it was loaded for (noted when it arrives, read later).
  let phase = 'login';
  const scripts: Array<Promise<{ phase: string; charts: boolean }>> = [];
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'script' || !r.ok()) return;
    const at = phase;
    scripts.push(r.text().then((text) => ({ phase: at, charts: text.includes('zrender') }), () => ({ phase: at, charts: false })));
  });
  const loaded = async (p: string) => (await Promise.all(scripts)).filter((s) => s.phase === p);
  await page.goto('/login');
  await expect(page.getByLabel('ユーザー名')).toBeVisible({ timeout: 150_000 });
  phase = 'dashboard';
  await signInQuickly(page, 'operator', 'kobe');
  phase = 'list';
  await page.goto('/kobe/news');
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  phase = 'statistics';
  await page.goto('/kobe/special-voucher/statistic');
  await expect(page.getByTestId('statistic-time-chart').locator('.echarts-for-react')).toHaveAttribute('aria-label', /推移/);
  await page.waitForLoadState('networkidle');
  expect((await loaded('login')).filter((s) => s.charts)).toEqual([]);
  expect((await loaded('list')).filter((s) => s.charts)).toEqual([]);
  expect((await loaded('statistics')).filter((s) => s.charts)).toHaveLength(1);
});

test('an Advertiser reads the menu purchases of its own shops (menu/list-purchase) as the API answers them for it', async ({ page }) => {
  await signInQuickly(page, 'advertiser', 'kobe');
  const said = watchErrors(page);
  await page.goto('/kobe/menu/list-purchase');
  await expect(page.getByRole('heading', { name: 'メニュー購入集計' })).toBeVisible();
  // the page opens on the last week (001 9 preset): from 7 days ago to today
  const end = todayInTokyo();
  const start = dayjs(end).subtract(7, 'day').format('YYYY-MM-DD');
  const res = await page.request.get('/kobe/api/statistics/menu-purchases/', { params: { start_date: start, end_date: end } });
  expect(res.status()).toBe(200);
  const api = (await res.json()) as StatisticAnswer;
  await expect(page.getByTestId('statistic-figure-total_price').getByTestId('figure-value')).toHaveText(shown(api.totals.total_price, true));
  await expect(page.getByTestId('statistic-figure-quantity').getByTestId('figure-value')).toHaveText(number(api.totals.quantity));
  await expect(page.getByTestId('statistic-time-chart').locator('.echarts-for-react')).toHaveAttribute('aria-label', /これは「売上の推移」に関するチャートです。/);
  await expect(page.getByTestId('statistic-period-table').locator('tbody tr.ant-table-row')).toHaveCount(api.series.length);
  // the voucher statistics are not the Advertiser's: refused by the API
  expect((await page.request.get('/kobe/api/statistics/voucher-usage/', { params: { start_date: start, end_date: end } })).status()).toBe(403);
  expect(said).toEqual([]);
});
