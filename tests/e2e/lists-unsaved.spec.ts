/**
 * The unsaved-changes guard of the generated forms (issue 5): with input typed and not saved, an
 * in-app navigation asks first (staying on the form when refused) and closing the tab asks too; a
 * save leaves without asking.
 */
import { expect, test } from '@playwright/test';
import { signInQuickly } from './helpers';

const CITY = 'kobe';

test('a dirty form asks before leaving; a saved one does not', async ({ page }) => {
  await signInQuickly(page, 'operator', CITY);
  await page.goto(`/${CITY}/news/create`);
  const title = page.getByLabel('タイトル');
  await title.fill('UNSAVED test');

  // Refuse: the form stays with its input.
  const asked: string[] = [];
  page.once('dialog', (d) => {
    asked.push(d.message());
    void d.dismiss();
  });
  await page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true }).first().click();
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toBe('保存していない変更があります。このページを離れてもよろしいですか？');
  await expect(page).toHaveURL(/\/news\/create$/);
  await expect(title).toHaveValue('UNSAVED test');

  // Closing the tab asks (beforeunload).
  const closing = page.waitForEvent('dialog');
  void page.close({ runBeforeUnload: true });
  const unload = await closing;
  expect(unload.type()).toBe('beforeunload');
  await unload.dismiss();
  expect(page.isClosed()).toBe(false);

  // Accept: the navigation happens.
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`/${CITY}/news$`));

  // A saved form leaves without asking.
  await page.goto(`/${CITY}/news/create`);
  await page.getByLabel('タイトル').fill('UNSAVED saved');
  await page.getByLabel('説明').fill('saved');
  page.on('dialog', () => {
    throw new Error('a saved form must not ask');
  });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/${CITY}/news$`));
});
