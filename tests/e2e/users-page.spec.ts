/**
 * The users page as an Operator of kobe uses it (000 2.2 `user`; 001 7.2, 8): the list from the side
 * menu, the filter_by select, search, create, the duplicate-username message on the form, edit,
 * delete after a confirmation, and a delete the server declines (209) keeping the entry.
 */
import { expect, test, type Page } from './fixtures';
import { clickInPopup, screenshot, signInQuickly } from './helpers';

const USERNAME_TAKEN = 'ユーザー名が既に使用されています。 もう一度お試しください。';

async function chooseFilter(page: Page, label: string): Promise<void> {
  await page.locator('.ant-select', { has: page.getByRole('combobox', { name: '絞り込み' }) }).click();
  await clickInPopup(page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: new RegExp(`^${label}$`) }));
}

async function searchFor(page: Page, text: string): Promise<void> {
  await page.getByPlaceholder('検索').fill(text);
  await page.getByPlaceholder('検索').press('Enter');
}

test('an Operator of kobe lists, filters, creates, edits and deletes users', async ({ page }) => {
  const stamp = Date.now();
  const username = `e2e_user_${stamp}`;
  await signInQuickly(page, 'operator', 'kobe');

  // the list, from the side menu
  await page.getByTestId('side-menu').getByRole('link', { name: 'ユーザー', exact: true }).click();
  await expect(page).toHaveURL(/\/kobe\/user$/);
  await expect(page.getByRole('heading', { name: 'ユーザー管理' })).toBeVisible();
  await expect(page.getByRole('row', { name: /president/ })).toHaveCount(1);
  await screenshot(page, 'users-list');

  // filter by operator: only operators are listed
  await chooseFilter(page, 'オペレーター');
  await expect(page.getByRole('row', { name: /president/ })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /operator/ }).first()).toBeVisible();
  const rows = page.locator('.ant-table-row');
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i += 1) await expect(rows.nth(i)).toContainText('オペレーター');
  await chooseFilter(page, 'すべて');
  await expect(page.getByRole('row', { name: /president/ })).toHaveCount(1);

  // create
  await page.getByRole('button', { name: '新規作成' }).click();
  const dialog = page.getByRole('dialog', { name: 'ユーザーを作成' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('ユーザー名').fill(username);
  await dialog.getByLabel('メールアドレス').fill(`${username}@example.jp`);
  await dialog.getByLabel('氏名').fill('神戸 花子');
  await dialog.getByLabel('パスワード').fill('password1');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(dialog).toBeHidden();
  await searchFor(page, username);
  const row = page.getByRole('row', { name: new RegExp(username) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('神戸 花子');
  await expect(row).toContainText('会員');

  // a username already used: the server's message on the form, nothing created
  await page.getByRole('button', { name: '新規作成' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('ユーザー名').fill('president');
  await dialog.getByLabel('メールアドレス').fill(`dup_${stamp}@example.jp`);
  await dialog.getByLabel('パスワード').fill('password1');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByText(USERNAME_TAKEN)).toBeVisible();
  await screenshot(page, 'users-duplicate');
  await dialog.getByRole('button', { name: 'キャンセル' }).click();
  await expect(dialog).toBeHidden();

  // edit
  await row.getByRole('button', { name: '編集' }).click();
  const edit = page.getByRole('dialog', { name: 'ユーザーを編集' });
  await expect(edit.getByLabel('ユーザー名')).toHaveValue(username);
  await edit.getByLabel('氏名').fill('神戸 次郎');
  await edit.getByRole('button', { name: '保存' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('神戸 次郎');

  // delete, after the confirmation
  await row.getByRole('button', { name: '削除' }).click();
  await clickInPopup(page.locator('.ant-popconfirm').getByRole('button', { name: 'はい' }));
  await expect(page.getByText('削除しました。')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(username) })).toHaveCount(0);
});

test('a delete the server declines (209) keeps the entry and shows its message', async ({ page }) => {
  await signInQuickly(page, 'operator', '/kobe/user');
  await searchFor(page, 'operator');
  const own = page.getByRole('row', { name: /\boperator\b/ }).first();
  await expect(own).toBeVisible();
  await own.getByRole('button', { name: '削除' }).click();
  await clickInPopup(page.locator('.ant-popconfirm').getByRole('button', { name: 'はい' }));
  await expect(page.getByText('自分自身のアカウントは削除できません。')).toBeVisible();
  await expect(own).toBeVisible();
});
