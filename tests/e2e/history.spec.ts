/**
 * Revisions, the recycle bin and field permissions in the console (docs/architecture.md 'Revisions and
 * the recycle bin', 'Field permissions'): an edit made through the form is a revision in the record's
 * 履歴 tab with its change old → new, and この版に戻す brings the old value back; a deleted row is in
 * the list's ごみ箱 and 元に戻す puts it back in the list; a field the role may not write is text on
 * its edit form, not an input; a field the role may not read has no column, no choice in the column
 * chooser, no CSV column and no line on the detail page (a Teacher among the school's teachers).
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { fillPath, getResource } from '../../src/shared/registry';
import { answerDialog, chooseMenuItem, rowAction, screenshot, signInQuickly } from './helpers';

const CITY = 'kobe';
const news = getResource('news');

async function createNews(page: import('./fixtures').Page, title: string): Promise<number> {
  const res = await page.request.post(fillPath(news.api.create!.path, { city: CITY }), { data: { title, description: '<b>三宮</b>の春祭り', attr: 'news' } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id as number;
}

test('an edit through the form is in 履歴 with its change, and この版に戻す brings the old title back', async ({ page }) => {
  const stamp = Date.now();
  const before = `HIST-${stamp} 春祭りのお知らせ`;
  const after = `HIST-${stamp} 春祭り（日程変更）`;
  await signInQuickly(page, 'operator', CITY);
  const id = await createNews(page, before);

  await page.goto(`/${CITY}/news/edit/${id}`);
  await expect(page.locator('#root_title')).toHaveValue(before);
  await page.locator('#root_title').fill(after);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();

  await page.goto(`/${CITY}/news/show/${id}`);
  await expect(page.getByTestId('show-fields')).toContainText(after);
  await page.getByRole('tab', { name: '履歴', exact: true }).click();
  const revisions = page.getByTestId('revision');
  await expect(revisions).toHaveCount(2);
  // Newest first: the update, by the operator, with the title old → new.
  const update = revisions.first();
  await expect(update.locator('.ant-tag')).toHaveText('更新');
  await expect(update).toContainText(/\d{4}年\d{2}月\d{2}日/);
  const titleRow = update.getByRole('row', { name: /タイトル/ });
  await expect(titleRow.locator('del')).toHaveText(before);
  await expect(titleRow.locator('ins')).toHaveText(after);
  await expect(revisions.last().locator('.ant-tag')).toHaveText('作成');
  // User text is text: the description's markup is shown as typed, never made HTML.
  await expect(revisions.last().getByText('<b>三宮</b>の春祭り')).toBeVisible();
  await expect(revisions.last().locator('b')).toHaveCount(0);
  // The newest revision is the record as it is: nothing to go back to.
  await expect(update.getByRole('button', { name: /に戻す/ })).toHaveCount(0);
  await screenshot(page, 'history-tab');

  await revisions.last().getByRole('button', { name: '第1版に戻す' }).click();
  await answerDialog(page, 'この版に戻す');
  await expect(page.getByText('元に戻しました。')).toBeVisible();
  await expect(revisions).toHaveCount(3);
  await expect(revisions.first().locator('.ant-tag')).toHaveText('版の復元');
  await expect(revisions.first().getByRole('row', { name: /タイトル/ }).locator('ins')).toHaveText(before);
  await page.getByRole('tab', { name: '詳細', exact: true }).click();
  await expect(page.getByTestId('show-fields')).toContainText(before);
  await expect(page.getByTestId('show-fields')).not.toContainText(after);
});

test('a long text changed through the form is compared word by word in 履歴; the title is shown whole', async ({ page }) => {
  const stamp = Date.now();
  const title = `DIFF-${stamp} 春祭りの会場`;
  const before = '今年の春祭りは四月十日に三宮の東遊園地で開かれます。屋台と音楽のステージがあります。<b>雨天決行</b>です。';
  const after = '今年の春祭りは四月十日に三宮の旧居留地で開かれます。屋台と音楽のステージがあります。<b>雨天決行</b>です。';
  await signInQuickly(page, 'operator', CITY);
  const res = await page.request.post(fillPath(news.api.create!.path, { city: CITY }), { data: { title, description: before, attr: 'news' } });
  expect(res.status(), await res.text()).toBe(201);
  const id = (await res.json()).id as number;

  await page.goto(`/${CITY}/news/edit/${id}`);
  await expect(page.locator('#root_description')).toHaveValue(before);
  await page.locator('#root_description').fill(after);
  await page.locator('#root_title').fill(`${title}（変更）`);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();

  await page.goto(`/${CITY}/news/show/${id}`);
  await page.getByRole('tab', { name: '履歴', exact: true }).click();
  const update = page.getByTestId('revision').first();
  await expect(update.locator('.ant-tag')).toHaveText('更新');
  const row = update.getByRole('row', { name: /説明/ });
  // Each side is its whole text, with only the changed word marked: 東遊園地 struck through, 旧居留地 added.
  const was = row.getByTestId('text-diff-before');
  const now = row.getByTestId('text-diff-after');
  await expect(was).toHaveText(before);
  await expect(now).toHaveText(after);
  await expect(was.locator('del')).toHaveText(['東遊園地']);
  await expect(now.locator('ins')).toHaveText(['旧居留地']);
  await expect(was.locator('ins')).toHaveCount(0);
  await expect(now.locator('del')).toHaveCount(0);
  // User text stays text: the markup is shown as typed.
  await expect(row.locator('b')).toHaveCount(0);
  // A title (a short text) is shown whole, old → new.
  const titleRow = update.getByRole('row', { name: /タイトル/ });
  await expect(titleRow.locator('del')).toHaveText(title);
  await expect(titleRow.locator('ins')).toHaveText(`${title}（変更）`);
  await expect(titleRow.getByTestId('text-diff-before')).toHaveCount(0);
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'history-word-diff');
});

test('a deleted row is in the ごみ箱, and 元に戻す puts it back in the list', async ({ page }) => {
  const title = `BIN-${Date.now()} 落とし物のお知らせ`;
  await signInQuickly(page, 'operator', CITY);
  const id = await createNews(page, title);
  const search = `/${CITY}/news?filters[0][field]=search&filters[0][operator]=contains&filters[0][value]=${encodeURIComponent(title)}`;

  await page.goto(search);
  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row).toHaveCount(1);
  await rowAction(row, '削除');
  await answerDialog(page, '削除');
  await expect(page.getByText('削除しました。')).toBeVisible();
  await expect(row).toHaveCount(0);

  await page.getByRole('button', { name: 'ごみ箱' }).click();
  await expect(page).toHaveURL(new RegExp(`/${CITY}/news/trash$`));
  await expect(page.getByRole('heading', { name: 'ニュースのごみ箱' })).toBeVisible();
  // The tabs bar and the breadcrumb name the page as the list's ごみ箱, not as the list.
  await expect(page.getByTestId('page-tabs').getByRole('tab', { name: 'ニュース · ごみ箱', exact: true })).toBeVisible();
  await expect(page.getByTestId('breadcrumb')).toHaveText(/ニュース\s*\/\s*ごみ箱$/);
  const binned = page.getByTestId('recycle-bin').getByRole('row', { name: new RegExp(title) });
  await expect(binned).toHaveCount(1);
  await expect(binned).toContainText('運用 花子');
  await screenshot(page, 'recycle-bin');
  await binned.getByRole('button', { name: `ID ${id} を元に戻す` }).click();
  await expect(page.getByText('元に戻しました。')).toBeVisible();
  await expect(binned).toHaveCount(0);

  await page.goto(search);
  await expect(page.getByRole('row', { name: new RegExp(title) })).toHaveCount(1);
});

test("an Advertiser's edit form shows the plan the city sold as text, not an input, and still saves", async ({ page }) => {
  await signInQuickly(page, 'advertiser', CITY);
  const ads = getResource('advertisement');
  const list = await page.request.get(fillPath(ads.api.list.path, { city: CITY }));
  expect(list.status()).toBe(200);
  const ad = ((await list.json()) as { content: Array<{ id: number; name: string }> }).content[0];
  expect(ad, 'the demo advertiser has a shop').toBeTruthy();

  await page.goto(`/${CITY}/advertisments/edit/${ad.id}`);
  await expect(page.locator('#root_name')).toHaveValue(ad.name);
  // プラン and the top-page flag: text with a line saying why, where an Operator has a select and a switch.
  for (const field of ['plan', 'is_top']) {
    const value = page.locator(`#root_${field}`);
    await expect(value).toBeVisible();
    await expect(value).toHaveAttribute('data-testid', 'read-only-field');
    await expect(value.locator('input, .ant-select, button[role="switch"]')).toHaveCount(0);
  }
  await expect(page.getByText('この項目を変更する権限がありません。')).toHaveCount(2);
  await expect(page.locator('#root_name')).toBeEditable();
  await screenshot(page, 'field-read-only');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
});

test("a field the role may not read is in no column, column choice, CSV or detail page: a teacher's e-mail and phone, hidden from a Teacher", async ({ page }) => {
  const stamp = Date.now();
  const name = `項目 先生${stamp}`;
  const email = `hidden${stamp}@school.example.jp`;
  await signInQuickly(page, 'president', CITY);
  const account = (await (await page.request.get('/default/api/users/account')).json()) as { school: number };
  const made = await page.request.post(fillPath(getResource('teacher').api.create!.path, { city: CITY }), {
    data: { name, username: `hidden${stamp}`, email, phone_number: '090-1234-5678', school: account.school, subject: '理科' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const id = (await made.json()).id as number;
  const list = `/${CITY}/group/teamlead/list?filters[0][field]=search&filters[0][operator]=contains&filters[0][value]=${encodeURIComponent(name)}`;
  const table = page.locator('.ant-table');
  const row = table.getByRole('row', { name: new RegExp(name) });
  const emailOption = page.locator('.ant-select-item-option', { hasText: 'メールアドレス' });

  // The President (who manages the teachers) has the e-mail as a column, one of the column chooser's, and reads both on the detail page.
  await page.goto(list);
  await expect(row).toHaveCount(1);
  await expect(table.getByRole('columnheader', { name: 'メールアドレス' })).toBeVisible();
  await page.getByTestId('column-chooser').click();
  await expect(emailOption).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(row).toContainText(email);
  await page.goto(`/${CITY}/group/teamlead/list/show/${id}`);
  await expect(page.getByTestId('show-fields')).toContainText(email);
  await expect(page.getByTestId('show-fields')).toContainText('090-1234-5678');

  // The Teacher of the same school.
  await signInQuickly(page, 'teacher', list);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('理科');
  // A hidden route is named by its own menu entry in its tab, as a sidebar page is.
  await expect(page.getByTestId('page-tabs').getByRole('tab', { name: '先生一覧' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'メールアドレス' })).toHaveCount(0);
  await expect(table.getByRole('columnheader', { name: '電話番号' })).toHaveCount(0);
  await expect(row).not.toContainText(email);
  await page.getByTestId('column-chooser').click();
  await expect(page.locator('.ant-select-item-option', { hasText: '担当教科' })).toBeVisible();
  await expect(emailOption).toHaveCount(0);
  await expect(page.locator('.ant-select-item-option', { hasText: '電話番号' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await screenshot(page, 'field-hidden-column');

  const pending = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV' }).click();
  await chooseMenuItem(page, 'CSV（UTF-8）');
  const csv = (await readFile((await (await pending).path())!)).toString('utf8');
  expect(csv).toContain(name);
  expect(csv).not.toContain('メールアドレス');
  expect(csv).not.toContain('電話番号');
  expect(csv).not.toContain(email);

  await page.goto(`/${CITY}/group/teamlead/list/show/${id}`);
  await expect(page.getByTestId('show-fields')).toContainText(name);
  await expect(page.getByTestId('show-fields')).not.toContainText('メールアドレス');
  await expect(page.getByTestId('show-fields')).not.toContainText(email);
  await expect(page.getByTestId('show-fields')).not.toContainText('090-1234-5678');
});
