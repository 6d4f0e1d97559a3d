/**
 * The news pages as an Operator uses them (000 2, 4; 001 8): sign-in and the city page, the generated
 * list/create/edit/delete of news with the search box, the spec's validation message, the language
 * switch, sign-in errors, and tokens kept out of JavaScript's reach.
 */
import { expect, test } from './fixtures';
import { answerDialog, clickInPopup, logOut, openLogin, rowAction, screenshot, signIn, signInQuickly, signInTo } from './helpers';

test.describe('sign-in', () => {
  test('a username that does not exist shows このユーザ名が存在していません。', async ({ page }) => {
    await signIn(page, `nobody-${Date.now()}`);
    await expect(page.getByText('このユーザ名が存在していません。')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a wrong password shows the server's message", async ({ page, request }) => {
    const answer = await request.post('/default/api/login', {
      data: { username: 'operator', password: 'wrong-password' },
      headers: { 'Accept-Language': 'ja' },
    });
    expect(answer.status()).toBe(400);
    const { detail } = (await answer.json()) as { detail: string };
    expect(detail).toBeTruthy();
    await signIn(page, 'operator', 'wrong-password');
    await expect(page.getByText(detail)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the login page is Japanese by default', async ({ page }) => {
    await openLogin(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByRole('button', { name: 'ログイン' })).toBeVisible();
    await screenshot(page, 'login');
  });

  test('tokens stay in HttpOnly cookies; /login with a session goes on; logout forgets the city', async ({ page }) => {
    await signInTo(page, 'operator', '神戸市', 'kobe');
    const cookies = await page.evaluate(() => document.cookie);
    expect(cookies).not.toContain('Admin-Token');
    expect(cookies).not.toContain('Admin-Refresh-Token');
    expect(await page.evaluate(() => localStorage.getItem('City'))).toBe('kobe');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/kobe\/dashboard$/);
    await logOut(page);
    expect(await page.evaluate(() => localStorage.getItem('City'))).toBeNull();
    await page.goto('/kobe/news');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('news as an Operator', () => {
  test('create, find, edit and delete a news item', async ({ page }) => {
    const stamp = Date.now();
    const title = `神戸の春祭りのお知らせ ${stamp}`;
    const edited = `神戸の春祭り（日程変更） ${stamp}`;

    await signIn(page, 'operator');
    await expect(page).toHaveURL(/\/city$/);
    await expect(page.getByRole('button', { name: '福岡市' })).toBeVisible();
    await screenshot(page, 'city');
    await page.getByRole('button', { name: '神戸市' }).click();
    await expect(page).toHaveURL(/\/kobe\/dashboard$/);
    await expect(page.getByTestId('side-menu').getByText('神戸市')).toBeVisible();

    await page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true }).click();
    await expect(page).toHaveURL(/\/kobe\/news/);
    await expect(page.getByRole('heading', { name: 'ニュース' })).toBeVisible();
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    await screenshot(page, 'list');

    // create
    await page.getByRole('button', { name: '新規作成' }).click();
    await expect(page).toHaveURL(/\/kobe\/news\/create$/);
    await page.locator('#root_title').fill(title);
    await page.locator('#root_description').fill('三宮で春祭りを開催します。ご来場をお待ちしています。');
    await screenshot(page, 'form');
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('保存しました。')).toBeVisible();
    await expect(page).toHaveURL(/\/kobe\/news(\?.*)?$/);

    // find it with the search box
    await page.getByPlaceholder('検索').fill(title);
    await page.getByPlaceholder('検索').press('Enter');
    const row = page.getByRole('row', { name: new RegExp(String(stamp)) });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(title);
    await expect(page).toHaveURL(/currentPage=1/);

    // edit it
    await rowAction(row, '編集');
    await expect(page).toHaveURL(/\/kobe\/news\/edit\/\d+$/);
    await expect(page.locator('#root_title')).toHaveValue(title);
    await page.locator('#root_title').fill(edited);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('保存しました。')).toBeVisible();
    await page.getByPlaceholder('検索').fill(edited);
    await page.getByPlaceholder('検索').press('Enter');
    const editedRow = page.getByRole('row', { name: new RegExp(String(stamp)) });
    await expect(editedRow).toHaveCount(1);
    await expect(editedRow).toContainText(edited);

    // the row's overflow menu opens from the keyboard too (mounted on first use:
    // components/mount-on-demand.tsx), 削除 last and red; Escape closes it; cancelling the
    // confirmation deletes nothing
    await editedRow.locator('[data-row-more]').focus();
    await page.keyboard.press('Enter');
    const items = page.locator('.ant-dropdown:visible [role="menuitem"]');
    await expect(items.last()).toHaveText(/削除/);
    await expect(items.last()).toHaveClass(/ant-dropdown-menu-item-danger/);
    await page.keyboard.press('Escape');
    await expect(page.locator('.ant-dropdown:visible')).toHaveCount(0);
    await rowAction(editedRow, '削除');
    await answerDialog(page, 'キャンセル');
    await expect(editedRow).toHaveCount(1);

    // delete it, after the confirmation
    await rowAction(editedRow, '削除');
    await answerDialog(page, '削除');
    await expect(page.getByText('削除しました。')).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(String(stamp)) })).toHaveCount(0);
  });

  test('a 201-character title shows the Japanese message and saves nothing', async ({ page }) => {
    const stamp = String(Date.now());
    const long = `${stamp}${'長'.repeat(201 - stamp.length)}`;
    expect(long).toHaveLength(201);
    await signInQuickly(page, 'operator', '/kobe/news/create');
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/admin-news/')) posts.push(r.url());
    });
    await page.locator('#root_title').fill(long);
    await expect(page.getByText('201 / 200')).toBeVisible();
    await page.locator('#root_description').fill('本文');
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('タイトルは200文字以内で入力してください。')).toBeVisible();
    await expect(page).toHaveURL(/\/kobe\/news\/create$/);
    await screenshot(page, 'form-error');
    expect(posts).toEqual([]);
    await page.goto('/kobe/news');
    await page.getByPlaceholder('検索').fill(stamp);
    await page.getByPlaceholder('検索').press('Enter');
    await expect(page.locator('.ant-table-row')).toHaveCount(0);
  });

  test('switching to English changes the labels', async ({ page }) => {
    await signInQuickly(page, 'operator', '/kobe/news');
    await expect(page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true })).toBeVisible();
    // antd's and dayjs's locale follow the language (loaded for the current one only): the date
    // filter's calendar header.
    const calendarHeader = async (placeholder: string) => {
      await page.getByPlaceholder(placeholder).click();
      const header = page.locator('.ant-picker-dropdown:visible .ant-picker-header-view').first();
      await expect(header).toBeVisible();
      const text = (await header.innerText()).replace(/\s+/g, '');
      await page.keyboard.press('Escape');
      return text;
    };
    expect(await calendarHeader('開始日')).toMatch(/^\d{4}年\d{1,2}月$/);
    await page.getByTestId('language-switch').click();
    await clickInPopup(page.locator('.ant-select-item-option[title="English"]'));
    await expect(page.getByText('Switch Language Success')).toBeVisible();
    await expect(page.getByTestId('side-menu').getByRole('link', { name: 'News', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Title' })).toBeVisible();
    expect(await calendarHeader('Start date')).toMatch(/^[A-Z][a-z]{2}\d{4}$/);
    await screenshot(page, 'list-en');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');
    await page.reload();
    await expect(page.getByTestId('side-menu').getByRole('link', { name: 'News', exact: true })).toBeVisible();
  });
});

test.describe('news as an Advertiser (read only)', () => {
  test('no create, edit or delete buttons; the create route goes to /401', async ({ page }) => {
    await signInQuickly(page, 'advertiser', 'kobe');
    await expect(page.getByTestId('side-menu').getByRole('link', { name: 'シーン', exact: true })).toHaveCount(0);
    await page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true }).click();
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    // 詳細 is the row's link; there is nothing else to do with a row, so no overflow menu
    await expect(page.locator('.ant-table-row').first().getByRole('link', { name: '詳細' })).toBeVisible();
    await expect(page.locator('[data-row-more]')).toHaveCount(0);
    await expect(page.getByRole('button', { name: '新規作成' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: '編集' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: '削除' })).toHaveCount(0);
    await page.goto('/kobe/news/create');
    await expect(page).toHaveURL(/\/401\?noGoBack=true$/);
    await page.goto('/fukuoka/news');
    await expect(page).toHaveURL(/\/404$/);
  });
});
