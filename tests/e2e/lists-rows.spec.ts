/**
 * Lists an operator reads at a glance (docs/architecture.md 'Console'): a reference column shows the
 * referenced rows' names, asked once per referenced resource and page, is filtered by choosing
 * names (with the mouse and with the keyboard) and sorted by them from its header; a row offers
 * only the actions that apply to it, its main action a link and the rest in one overflow menu, and
 * no data column is cut at 1,366 px; below 576 px the rows are cards and the toolbar folds into one
 * filter drawer (axe finds no serious violation there).
 */
import { expect, test, type Page } from './fixtures';
import { answerDialog, chooseMenuItem, clickInPopup, expectNoSeriousViolation, screenshot, signInQuickly } from './helpers';

const CITY = 'kobe';

/** The names of kobe's shops by id, as the API answers them to the session of `page`. */
async function shopNames(page: Page): Promise<Map<string, string>> {
  const res = await page.request.get(`/${CITY}/api/operator-advertisement/`, { params: { limit: 1000 } });
  expect(res.status()).toBe(200);
  return new Map(((await res.json()).content as Array<{ id: number; name: string }>).map((a) => [String(a.id), a.name]));
}

test('the coupon list names its shops, asking for them once per page', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith(`/${CITY}/api/operator-advertisement/`) || /\/api\/advertisements\/\d+\/$/.test(url.pathname)) asked.push(`${url.pathname}${url.search}`);
  });
  await signInQuickly(page, 'operator', `/${CITY}/coupon`);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const names = await shopNames(page);
  const column = (await page.locator('.ant-table-thead th').allInnerTexts()).findIndex((t) => t.trim() === '広告');
  expect(column).toBeGreaterThan(0);
  const cells = page.locator(`.ant-table-tbody tr.ant-table-row td:nth-child(${column + 1})`);
  // Every cell: the shop's name, not its id.
  await expect(cells.locator('[data-ref-id]').first()).not.toHaveText(/^#/);
  const ids = await cells.locator('[data-ref-id]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-ref-id'), e.textContent]));
  expect(ids.length).toBeGreaterThan(1);
  for (const [id, text] of ids) expect(text, `shop #${id}`).toBe(names.get(id!));
  // The page's shops were asked for in one request (the list with ids), no show call per row.
  const batch = asked.filter((u) => u.includes('ids='));
  expect(batch, asked.join('\n')).toHaveLength(1);
  expect(asked.filter((u) => /\/api\/advertisements\/\d+\/$/.test(u))).toEqual([]);
  await screenshot(page, 'lists-rows-coupon-references');
});

test('the coupon list filters by shops chosen by name, with the mouse and with the keyboard', async ({ page }) => {
  await signInQuickly(page, 'operator', `/${CITY}/coupon`);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const column = (await page.locator('.ant-table-thead th').allInnerTexts()).findIndex((t) => t.trim() === '広告');
  const cells = page.locator(`.ant-table-tbody tr.ant-table-row td:nth-child(${column + 1})`);
  await expect(cells.locator('[data-ref-id]').first()).not.toHaveText(/^#/);
  const shown = await cells.locator('[data-ref-id]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-ref-id')!, e.textContent!] as const));
  const shops = [...new Map(shown)];
  expect(shops.length, 'two shops on the first page').toBeGreaterThan(1);
  const [[, firstName], [, secondName]] = shops;
  await page.getByRole('button', { name: '広告で絞り込む' }).click();
  const select = page.getByRole('combobox', { name: '広告で絞り込む' });
  // The select has the focus when the dropdown opens.
  await expect(select).toBeFocused();
  // The first shop with the mouse: part of its name searches the shops, a click chooses it.
  await page.keyboard.type(firstName.slice(0, 4));
  await clickInPopup(page.locator('.ant-select-item-option', { hasText: firstName }).first());
  // The second with the keyboard: its name, Enter on the first option found, Escape closes the options.
  await page.keyboard.type(secondName);
  await expect(page.locator('.ant-select-item-option-active')).toHaveText(secondName);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  // The choices stay in the open filter; Tab reaches its buttons, Enter applies it.
  // (The select shows what fits, then "+ 1 …"; each choice is there, named.)
  for (const name of [firstName, secondName]) await expect(page.locator('.ant-table-filter-dropdown .ant-select-selection-item').and(page.locator(`[title="${name}"]`))).toHaveCount(1);
  const apply = page.getByRole('button', { name: '絞り込む', exact: true });
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(apply).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/advertisement/);
  await expect(page.locator('.ant-table-filter-dropdown')).toBeHidden();
  // The rows shown are those of the two shops chosen by name (shops of the same name, which earlier
  // tests may have stored, are offered under that name as well).
  await expect
    .poll(async () => {
      const names = await cells.locator('[data-ref-id]').evaluateAll((els) => els.map((e) => e.textContent));
      return names.length > 0 && names.every((name) => name === firstName || name === secondName);
    })
    .toBe(true);
});

test('the coupon list sorts by the shop’s name from the column’s header', async ({ page }) => {
  await signInQuickly(page, 'operator', `/${CITY}/coupon`);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const headers = page.locator('.ant-table-thead th');
  const column = (await headers.allInnerTexts()).findIndex((t) => t.trim() === '広告');
  const cells = page.locator(`.ant-table-tbody tr.ant-table-row td:nth-child(${column + 1})`);
  await expect(cells.locator('[data-ref-id]').first()).not.toHaveText(/^#/);
  await headers.nth(column).getByText('広告', { exact: true }).click();
  await expect(headers.nth(column)).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/advertisement/);
  // The rows are those the API answers sorted by the shop's name, and their names come in order
  // (as the database compares text: code points).
  const api = await page.request.get(`/${CITY}/api/coupon/`, { params: { order_by: 'advertisement', limit: 20 } });
  const expected = ((await api.json()).content as Array<{ id: number }>).map((c) => String(c.id));
  await expect.poll(async () => (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key')))).join(',')).toBe(expected.slice(0, await rows.count()).join(','));
  const names = await cells.evaluateAll((tds) => tds.map((td) => td.querySelector('[data-ref-id]')?.textContent ?? '\uffff'));
  expect(new Set(names).size, names.join(', ')).toBeGreaterThan(1);
  expect(names, names.join(', ')).toEqual([...names].sort());
  await screenshot(page, 'lists-rows-coupon-sorted-by-shop');
});

test('an advertisement row offers トップに掲載 or トップから外す as it applies; the actions cut no column at 1,366 px', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 800 });
  await signInQuickly(page, 'operator', `/${CITY}/advertisments`);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  // Put the first row at the top through its menu (confirmed), then look at both kinds of row.
  const first = rows.first();
  const id = await first.getAttribute('data-row-key');
  await first.locator('[data-row-more]').click();
  const menu = page.locator('.ant-dropdown:visible');
  const top = menu.locator('[data-action="toppan"]');
  const untop = menu.locator('[data-action="untoppan"]');
  await expect(menu.getByRole('menuitem').first()).toBeVisible();
  if ((await untop.count()) > 0) {
    // Already at the top: only トップから外す is offered.
    await expect(top).toHaveCount(0);
  } else {
    await expect(untop).toHaveCount(0);
    const call = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(`/advertisements/${id}/toppan/`));
    await clickInPopup(top);
    await answerDialog(page, '実行');
    expect((await call).status()).toBe(200);
    await expect(page.getByText('保存しました。')).toBeVisible();
    // The list as it is now stored.
    await page.reload();
    await expect(rows.first()).toBeVisible();
  }
  const row = page.locator(`tr[data-row-key="${id}"]`);
  await row.locator('[data-row-more]').click();
  await expect(page.locator('.ant-dropdown:visible [data-action="untoppan"]')).toHaveCount(1);
  await expect(page.locator('.ant-dropdown:visible [data-action="toppan"]')).toHaveCount(0);
  // 削除 last and red.
  const items = page.locator('.ant-dropdown:visible [role="menuitem"]');
  await expect(items.last()).toHaveText(/削除/);
  await expect(items.last()).toHaveClass(/ant-dropdown-menu-item-danger/);
  await page.keyboard.press('Escape');
  // The main action is a link; a row holds one link and one menu button.
  await expect(row.getByRole('link', { name: '編集' })).toBeVisible();
  await expect(row.getByRole('button')).toHaveCount(1);
  // No column is cut: the table fits the window, and the actions column covers no data cell.
  const fits = await page.locator('.ant-table-content, .ant-table-body').first().evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
  expect(fits).toBe(true);
  // Free text wraps to make that room; a number keeps to one line (an ID is never broken as 40 / 6).
  const idLines = await row.locator('td.resource-cell-nowrap').first().evaluate((td) => {
    const text = document.createRange();
    text.selectNodeContents(td);
    return new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(idLines).toBe(1);
  await screenshot(page, 'lists-rows-advertisements-1366');
});

test.describe('a list on a phone (390 × 844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the advertiser’s time sales are cards; search, dates, views and CSV are in one drawer; axe finds nothing serious', async ({ page }) => {
    await signInQuickly(page, 'advertiser', `/${CITY}/timesales/index`);
    const cards = page.locator('.resource-card');
    await expect(cards.first()).toBeVisible();
    await expect(page.locator('.ant-table')).toHaveCount(0);
    // A card: its title, its shop by name, its actions.
    const card = cards.first();
    await expect(card.locator('h3')).not.toHaveText('');
    await expect(card.locator('[data-ref-id]').first()).not.toHaveText(/^#/);
    await expect(card.getByRole('link').first()).toBeVisible();
    // Nothing is wider than the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'lists-rows-phone-cards');
    await expectNoSeriousViolation(page, 'list cards');

    // The toolbar's controls are in the drawer.
    await expect(page.getByPlaceholder('検索')).toHaveCount(0);
    await page.getByTestId('list-filters').click();
    const drawer = page.locator('.ant-drawer-content');
    await expect(drawer.getByPlaceholder('検索')).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'CSV' })).toBeVisible();
    await screenshot(page, 'lists-rows-phone-drawer');
    await expectNoSeriousViolation(page, 'list filter drawer');
    const title = (await card.locator('h3').innerText()).slice(0, 2);
    await drawer.getByPlaceholder('検索').fill(title);
    await drawer.getByPlaceholder('検索').press('Enter');
    // The search closes the drawer.
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/search/);
    await expect(cards.first()).toContainText(title);

    // A card's overflow menu opens and lists its actions.
    await cards.first().locator('[data-row-more]').click();
    await chooseMenuItem(page, '詳細');
    await expect(page).toHaveURL(/\/timesales\/index\/show\/\d+$/);
  });
});
