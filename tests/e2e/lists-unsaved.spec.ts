/**
 * The unsaved-changes guard of the generated forms (docs/architecture.md 'Beyond the spec'): input typed and not saved survives a
 * move elsewhere in the console (its open-page tab keeps it); closing that tab, the browser tab,
 * signing out or switching city asks first; a saved form asks nothing.
 */
import { expect, test } from './fixtures';
import { signInQuickly } from './helpers';

const CITY = 'kobe';

test('a dirty form asks before its input can be lost; a saved one does not', async ({ page }) => {
  await signInQuickly(page, 'operator', CITY);
  const menuLink = (name: string) => page.getByTestId('side-menu').getByRole('link', { name, exact: true }).first();
  await menuLink('ニュース').click();
  await page.getByRole('button', { name: '新規作成' }).click();
  await expect(page).toHaveURL(/\/news\/create$/);
  const title = page.locator('#root_title');
  await title.fill('UNSAVED test');

  // Elsewhere and back: nothing asked, nothing lost.
  await menuLink('イベント').click();
  await expect(page).toHaveURL(new RegExp(`/${CITY}/event`));
  await expect(page.locator('.ant-table tbody tr.ant-table-row').first()).toBeVisible();
  await page.getByTestId('page-tabs').locator('.ant-tabs-tab-btn').filter({ hasText: '新規作成' }).click();
  await expect(page).toHaveURL(/\/news\/create$/);
  await expect(title).toHaveValue('UNSAVED test');

  // Closing the browser tab asks (beforeunload); refused, the page stays.
  const closing = page.waitForEvent('dialog');
  void page.close({ runBeforeUnload: true });
  const unload = await closing;
  expect(unload.type()).toBe('beforeunload');
  await unload.dismiss();
  expect(page.isClosed()).toBe(false);

  // Closing the form's open-page tab asks; kept, the input is still there.
  await page.getByTestId('page-tabs').locator('.ant-tabs-tab', { hasText: '新規作成' }).getByTestId('tab-close').click();
  const ask = page.getByRole('dialog');
  await expect(ask).toContainText('入力中の内容は失われます。閉じてもよろしいですか？');
  await ask.getByRole('button', { name: 'キャンセル' }).click();
  await expect(ask).toBeHidden();
  await expect(title).toHaveValue('UNSAVED test');

  // Signing out and switching city close every tab: both ask; kept, the input is still there.
  await page.getByRole('button', { name: 'ログアウト' }).click();
  await expect(ask).toContainText('入力中の内容は失われます。閉じてもよろしいですか？');
  await ask.getByRole('button', { name: 'キャンセル' }).click();
  await expect(ask).toBeHidden();
  await page.getByTestId('side-menu').getByRole('link', { name: '神戸市' }).click();
  await expect(ask).toContainText('入力中の内容は失われます。閉じてもよろしいですか？');
  await ask.getByRole('button', { name: 'キャンセル' }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(/\/news\/create$/);
  await expect(title).toHaveValue('UNSAVED test');

  // Saved: no question, back to the list.
  await page.locator('#root_description').fill('saved');
  page.on('dialog', () => {
    throw new Error('a saved form must not ask');
  });
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/${CITY}/news$`));
});
