/**
 * The open-page tabs and the command palette (000 2.3; docs/architecture.md 'Beyond the spec'): a list keeps its search text and a
 * form its unsaved input while another tab is used; close others and close all; Ctrl+K jumps to a
 * page of the menu and to an open tab, by keyboard only.
 */
import { expect, test, type Page } from './fixtures';
import { chooseMenuItem, signInQuickly } from './helpers';

const tabs = (page: Page) => page.getByTestId('page-tabs').getByRole('tab');
const menuLink = (page: Page, name: string) => page.getByTestId('side-menu').getByRole('link', { name, exact: true });

/** The list state a URL's query carries (Refine `syncWithLocation`): search, sort, page, page size. */
function listQuery(url: string) {
  const q = new URL(url).searchParams;
  return {
    search: q.get('filters[0][value]'),
    sort: `${q.get('sorters[0][field]')} ${q.get('sorters[0][order]')}`,
    page: q.get('currentPage'),
    pageSize: q.get('pageSize'),
  };
}

test('tabs keep a list search and unsaved form input; close others; close all', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await expect(tabs(page)).toHaveText(['ダッシュボード']);

  // a list with a search and a sort: its query in the address bar
  await menuLink(page, 'ニュース').click();
  await expect(page.getByRole('heading', { name: 'ニュース' })).toBeVisible();
  await page.getByPlaceholder('検索').fill('春祭り');
  await page.getByPlaceholder('検索').press('Enter');
  await expect(page).toHaveURL(/\/kobe\/news\?.*春祭り|\/kobe\/news\?.*%E6%98%A5/);
  await page.locator('.ant-table').getByRole('columnheader', { name: 'タイトル' }).click();
  await expect.poll(() => listQuery(page.url())).toEqual({ search: '春祭り', sort: 'title asc', page: '1', pageSize: '20' });
  const listUrl = page.url();

  // a form with unsaved input
  await page.getByRole('button', { name: '新規作成' }).click();
  await expect(page).toHaveURL(/\/kobe\/news\/create$/);
  await page.locator('#root_title').fill('まだ保存していない題名');

  // work elsewhere
  await menuLink(page, 'イベント').click();
  await expect(page.getByRole('heading', { name: 'イベント' })).toBeVisible();
  await expect(tabs(page)).toHaveText(['ダッシュボード', 'ニュース', 'ニュース · 新規作成', 'イベント']);
  // the hidden tabs' pages are out of the document: one search box, no form
  await expect(page.getByPlaceholder('検索')).toHaveCount(1);
  await expect(page.locator('#root_title')).toHaveCount(0);

  // back to the list tab: the search and the sort are still there, and back in the address bar
  await tabs(page).filter({ hasText: /^ニュース$/ }).click();
  await expect(page).toHaveURL(listUrl);
  expect(listQuery(page.url())).toEqual({ search: '春祭り', sort: 'title asc', page: '1', pageSize: '20' });
  await expect(page.getByPlaceholder('検索')).toHaveValue('春祭り');
  await expect(page.locator('.ant-table').getByRole('columnheader', { name: 'タイトル' })).toHaveAttribute('aria-sort', 'ascending');

  // back to the form tab: the input is still there
  await tabs(page).filter({ hasText: '新規作成' }).click();
  await expect(page).toHaveURL(/\/kobe\/news\/create$/);
  await expect(page.locator('#root_title')).toHaveValue('まだ保存していない題名');

  // close others (from the tab bar's menu): the dashboard and this tab stay
  await page.getByTestId('tabs-menu').click();
  await chooseMenuItem(page, '他のタブを閉じる');
  await expect(tabs(page)).toHaveText(['ダッシュボード', 'ニュース · 新規作成']);
  await expect(page.locator('#root_title')).toHaveValue('まだ保存していない題名');

  // close all: only the dashboard stays, and it is shown
  await menuLink(page, 'イベント').click();
  await expect(tabs(page)).toHaveCount(3);
  await page.getByTestId('tabs-menu').click();
  await chooseMenuItem(page, 'すべて閉じる');
  // the form still holds unsaved input: closing it asks first (the unsaved-changes guard)
  await page.getByRole('dialog').getByRole('button', { name: '破棄して閉じる' }).click();
  await expect(tabs(page)).toHaveText(['ダッシュボード']);
  await expect(page).toHaveURL(/\/kobe\/dashboard$/);
});

test('closing a tab with its close button goes to its neighbour', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await menuLink(page, 'ニュース').click();
  await expect(page.getByRole('heading', { name: 'ニュース' })).toBeVisible();
  await menuLink(page, 'イベント').click();
  await expect(tabs(page)).toHaveCount(3);
  await page.getByTestId('page-tabs').locator('.ant-tabs-tab', { hasText: 'イベント' }).getByTestId('tab-close').click();
  await expect(tabs(page)).toHaveText(['ダッシュボード', 'ニュース']);
  await expect(page).toHaveURL(/\/kobe\/news/);

  // refresh mounts the page anew: the unsaved input goes
  await page.getByRole('button', { name: '新規作成' }).click();
  await page.locator('#root_title').fill('消える題名');
  await page.getByTestId('tabs-menu').click();
  await chooseMenuItem(page, '再読み込み');
  await page.getByRole('dialog').getByRole('button', { name: '破棄して閉じる' }).click();
  await expect(page.locator('#root_title')).toHaveValue('');
});

test('a tab closes from the keyboard with Delete, the focus going to its neighbour', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await menuLink(page, 'ニュース').click();
  await expect(page.getByRole('heading', { name: 'ニュース' })).toBeVisible();
  await menuLink(page, 'イベント').click();
  await expect(page.getByRole('heading', { name: 'イベント' })).toBeVisible();
  // (a focused tab also holds antd's spoken 'Tab n of m': the names are matched at their end)
  await expect(tabs(page)).toHaveText([/ダッシュボード$/, /ニュース$/, /イベント$/]);
  // the close marks are for the mouse: no Tab stop, nothing announced; the tabs say Delete closes them
  await expect(page.getByTestId('tab-close').first()).toHaveAttribute('aria-hidden', 'true');
  await expect(tabs(page).nth(1)).toHaveAttribute('aria-keyshortcuts', 'Delete');
  await expect(tabs(page).first()).not.toHaveAttribute('aria-keyshortcuts', /./);

  // the active tab focused, the arrow key to the news tab, Delete: news closes, events stays shown
  await tabs(page).filter({ hasText: 'イベント' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(tabs(page).filter({ hasText: 'ニュース' })).toBeFocused();
  await page.keyboard.press('Delete');
  await expect(tabs(page)).toHaveText([/ダッシュボード$/, /イベント$/]);
  await expect(page).toHaveURL(/\/kobe\/event/);
  await expect(tabs(page).filter({ hasText: 'イベント' })).toBeFocused();

  // Delete on the shown tab: its neighbour (the dashboard) is shown and focused; the dashboard stays
  await page.keyboard.press('Delete');
  await expect(tabs(page)).toHaveText([/ダッシュボード$/]);
  await expect(page).toHaveURL(/\/kobe\/dashboard$/);
  await expect(tabs(page).first()).toBeFocused();
  await page.keyboard.press('Delete');
  await expect(tabs(page)).toHaveText([/ダッシュボード$/]);
});

test('the command palette jumps to a page and to an open tab by keyboard', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await menuLink(page, 'ニュース').click();
  await page.getByPlaceholder('検索').fill('palette');
  await page.getByPlaceholder('検索').press('Enter');
  await expect(page).toHaveURL(/palette/);

  await page.keyboard.press('Control+k');
  const input = page.getByTestId('palette-input');
  await expect(input).toBeFocused();
  await input.pressSequentially('イベント');
  await expect(page.getByRole('option').first()).toContainText('イベント');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/kobe\/event$/);
  await expect(page.getByRole('heading', { name: 'イベント' })).toBeVisible();

  // the open news tab, with its search, chosen with the arrow keys
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').pressSequentially('ニュース');
  const options = page.getByRole('option');
  await expect(options.first()).toContainText('開いているタブ');
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/kobe\/news\?.*palette/);
  await expect(page.getByPlaceholder('検索')).toHaveValue('palette');
});

test('a tab keeps its scroll position', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 300 });
  await signInQuickly(page, 'operator', 'kobe');
  await menuLink(page, 'ニュース').click();
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  const scrolled = await page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    return Math.round(window.scrollY);
  });
  expect(scrolled).toBeGreaterThan(100);

  // elsewhere through the palette (no click that scrolls), then back
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').pressSequentially('イベント');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'イベント' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').pressSequentially('ニュース');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'ニュース' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(scrolled);
});

test('a list kept in its tab is not fetched again while other pages are opened', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  await menuLink(page, 'ニュース').click();
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  const newsCalls: string[] = [];
  page.on('request', (r) => {
    if (/\/kobe\/api\/city\/admin-news\/\?/.test(r.url())) newsCalls.push(r.url());
  });
  await menuLink(page, 'イベント').click();
  await expect(page.getByRole('heading', { name: 'イベント' })).toBeVisible();
  await menuLink(page, 'ダッシュボード').click();
  await expect(page).toHaveURL(/\/kobe\/dashboard$/);
  await menuLink(page, 'シーン').click();
  await expect(page.getByRole('heading', { name: 'シーン' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // The news tab is still open, its rows kept; its query did not change, so nothing asked for it.
  await expect(tabs(page).filter({ hasText: 'ニュース' })).toHaveCount(1);
  expect(newsCalls).toEqual([]);
});

test('a list opened from the sidebar is asked for once and shows its rows without a spinner', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  const newsCalls: string[] = [];
  page.on('request', (r) => {
    if (/\/kobe\/api\/city\/admin-news\/\?/.test(r.url())) newsCalls.push(new URL(r.url()).search);
  });
  await menuLink(page, 'ニュース').click();
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await expect(page.locator('.ant-table .ant-spin-spinning')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(newsCalls).toEqual(['?limit=20&offset=0&order_by=-create_at']);
  // The address stays the bare list's until the list is changed; a change is asked for and written.
  await expect(page).toHaveURL(/\/kobe\/news$/);
  await page.locator('.ant-table').getByRole('columnheader', { name: 'タイトル' }).click();
  await expect.poll(() => listQuery(page.url())).toEqual({ search: null, sort: 'title asc', page: '1', pageSize: '20' });
  await expect.poll(() => newsCalls).toEqual(['?limit=20&offset=0&order_by=-create_at', '?limit=20&offset=0&order_by=title']);
  await expect(page.locator('.ant-table .ant-spin-spinning')).toHaveCount(0);
});
