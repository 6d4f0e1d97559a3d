/**
 * The dashboard (000 2.2 `/{city}/dashboard`, the first page of every role), on the demo data of a
 * new database (src/server/statistics/demo-data.ts): an Operator of kobe sees the city's figures of
 * the last 30 days as the API answers them (yen with thousands separators, the change against the
 * previous 30 days, a sparkline with its aria description, a link to each figure's page); the
 * Advertiser sees its shops' figures only; the sparklines' chunk (ECharts) is asked for after the
 * figures' answer, and never on the login page; nothing is said in the browser's console; axe finds
 * no serious violation, light or dark.
 * Screenshots /tmp/dash-*.png at 1280 and 390 px wide, light and dark.
 */
import { expect, test, type Page } from './fixtures';
import type { DashboardAnswer, DashboardFigure } from '../../src/shared/dashboard';
import { expectNoSeriousViolation, signInQuickly } from './helpers';

const API = '/kobe/api/statistics/dashboard/';

/** A figure as the page writes it in Japanese (001 9): ¥ and thousands separators for money. */
function shown(f: Pick<DashboardFigure, 'value' | 'format'>, value = f.value): string {
  const n = new Intl.NumberFormat('ja').format(Math.round(value));
  return f.format === 'yen' ? `¥${n}` : n;
}

/**
 * axe finds no serious or critical violation on the page (helpers.ts), the admin notices' carousel of
 * the layout left out (antd's Carousel keeps focusable slides under aria-hidden: the layout's, not
 * the dashboard's).
 */
async function expectAccessible(page: Page, name: string): Promise<void> {
  await expectNoSeriousViolation(page, name, ['.ant-carousel']);
}

/** Console errors, warnings and uncaught errors of the page, from now on. */
function consoleOf(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') said.push(`${m.type()} at ${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => said.push(`uncaught at ${page.url()}: ${e.message}`));
  return said;
}

/** Checks every figure of the API's answer against its card: title, value, previous value, link, sparkline. */
async function expectFigures(page: Page, answer: DashboardAnswer, titles: Record<string, string>): Promise<void> {
  const cards = page.locator('[data-testid^="dashboard-figure-"]');
  await expect(cards).toHaveCount(answer.figures.length);
  for (const f of answer.figures) {
    const card = page.getByTestId(`dashboard-figure-${f.key}`);
    await expect(card.getByTestId('figure-title')).toHaveText(titles[f.key]);
    await expect(card.getByTestId('figure-value')).toHaveText(shown(f));
    await expect(card.getByTestId('figure-previous')).toHaveText(`前の30日間：${shown(f, f.previous)}`);
    if (f.route) await expect(card.getByRole('link', { name: titles[f.key] })).toHaveAttribute('href', `/kobe/${f.route}`);
    // ECharts' aria description names the figure (its title) on the chart's element.
    await expect(card.getByTestId('figure-sparkline').locator('[aria-label]').first()).toHaveAttribute('aria-label', new RegExp(`${titles[f.key]}の推移`));
  }
}

test.describe('the dashboard of each role, on the demo data', () => {
  test('an Operator of kobe sees the city’s figures of the last 30 days as the API answers them, and opens a figure’s page', async ({ page }) => {
    const said = consoleOf(page);
    const order: string[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === API) order.push('answer');
    });
    page.on('request', (r) => {
      if (/dashboard-sparkline/.test(r.url())) order.push('sparklines');
    });
    await signInQuickly(page, 'operator', 'kobe');
    const answer = (await (await page.request.get(API)).json()) as DashboardAnswer;
    expect(answer.scope).toBe('city');
    const byKey = Object.fromEntries(answer.figures.map((f) => [f.key, f]));
    // the demo data's figures are there, and money
    expect(byKey.pass_revenue).toMatchObject({ format: 'yen' });
    expect(byKey.pass_revenue.value).toBeGreaterThan(10_000);
    expect(byKey.voucher_uses.value).toBeGreaterThan(100);

    await expect(page.getByRole('heading', { name: '市の数値' })).toBeVisible();
    await expect(page.getByTestId('dashboard-period')).toHaveText(/^過去30日間（\d{4}年\d{2}月\d{2}日〜\d{4}年\d{2}月\d{2}日）$/);
    await expectFigures(page, answer, {
      new_members: '新規会員',
      pushes_sent: '送信したプッシュ通知',
      coupons_used: 'クーポン利用数',
      passes_sold: 'パス販売数',
      pass_revenue: 'パス売上',
      voucher_uses: '商品券利用数',
      clicks: 'クリック数',
      open_reports: '未対応の通報',
      unread_notices: '未読の運営からのお知らせ',
      imports: 'CSVインポート',
    });
    // the change against the previous period, in % with one decimal
    const revenue = page.getByTestId('dashboard-figure-pass_revenue');
    const change = Math.round(((byKey.pass_revenue.value - byKey.pass_revenue.previous) / byKey.pass_revenue.previous) * 1000) / 10;
    const percent = `${new Intl.NumberFormat('ja', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.abs(change))}%`;
    await expect(revenue.getByTestId('figure-change')).toHaveText(`前期間比 ${change > 0 ? '+' : change < 0 ? '-' : '±'}${percent}`);
    // the sparklines' chunk was asked for once the figures had come
    expect(order.indexOf('sparklines')).toBeGreaterThan(order.indexOf('answer'));
    expect(order.indexOf('answer')).toBeGreaterThanOrEqual(0);

    await expectAccessible(page, 'dashboard');
    await page.screenshot({ path: '/tmp/dash-operator-1280-light.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('dashboard-figure-pass_revenue')).toBeVisible();
    await page.screenshot({ path: '/tmp/dash-operator-390-light.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // a figure's title opens its page
    await page.getByTestId('dashboard-figure-voucher_uses').getByRole('link', { name: '商品券利用数' }).click();
    await expect(page).toHaveURL(new RegExp(`/kobe/${byKey.voucher_uses.route}$`));
    expect(said).toEqual([]);
  });

  test('the Advertiser sees its shops’ figures only, in dark mode too', async ({ page }) => {
    const said = consoleOf(page);
    await signInQuickly(page, 'advertiser', 'kobe');
    const answer = (await (await page.request.get(API)).json()) as DashboardAnswer;
    expect(answer.scope).toBe('shops');
    expect(answer.figures.map((f) => f.key)).toEqual(['menu_purchases', 'menu_revenue', 'favourites', 'reservations', 'shop_reports']);
    expect(answer.figures[1].value).toBeGreaterThan(1000);
    await expect(page.getByRole('heading', { name: '店舗の数値' })).toBeVisible();
    await expectFigures(page, answer, {
      menu_purchases: 'メニュー購入数',
      menu_revenue: 'メニュー売上',
      favourites: 'お気に入り登録',
      reservations: '予約数',
      shop_reports: '通報',
    });
    await expect(page.getByTestId('dashboard-figure-pass_revenue')).toHaveCount(0);
    await page.screenshot({ path: '/tmp/dash-advertiser-1280-light.png', fullPage: true });

    await page.getByTestId('theme-picker').click();
    await page.getByTestId('dark-mode').click();
    await expect(page.getByTestId('dark-mode')).toHaveAttribute('aria-checked', 'true');
    // the theme popup closes on a click elsewhere
    await page.getByRole('heading', { name: '店舗の数値' }).click();
    await expect(page.getByTestId('dark-mode')).toBeHidden();
    await expect(page.getByTestId('dashboard-figure-menu_revenue').getByTestId('figure-sparkline').locator('[aria-label]').first()).toBeVisible();
    await expectAccessible(page, 'dark dashboard');
    await page.screenshot({ path: '/tmp/dash-advertiser-1280-dark.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('dashboard-figure-menu_revenue')).toBeVisible();
    await page.screenshot({ path: '/tmp/dash-advertiser-390-dark.png', fullPage: true });
    expect(said).toEqual([]);
  });

  test('the login page and a list page opened by its address never ask for the charts', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    const charts = () => scripts.filter((s) => /dashboard-sparkline|echarts|chart/i.test(s));
    await page.goto('/login');
    await expect(page.locator('input[autocomplete="current-password"]')).toBeVisible();
    expect(charts()).toEqual([]);
    const res = await page.request.post('/default/api/login', { data: { username: 'operator', password: 'demo1234' } });
    expect(res.status()).toBe(200);
    await page.goto('/kobe/news');
    await expect(page.locator('.ant-table tbody tr.ant-table-row').first()).toBeVisible();
    expect(scripts.length).toBeGreaterThan(10);
    expect(charts()).toEqual([]);
  });
});
