/**
 * The error catalogue of 001 8 as a user meets it (answers forced with page.route): a 500 says
 * 'Server Error Occured. Please Try Again !', a 403 signs out and /login says why. And an upload
 * through the widget of an `x-upload` image field (000 5 Files), when the menu has such a form and
 * the server has its file route.
 */
import { expect, test } from './fixtures';
import { defineAbilityFor } from '../../src/shared/ability';
import { menuFor, type MenuEntry } from '../../src/shared/manifest';
import { getResource, registry } from '../../src/shared/registry';
import type { Profile } from '../../src/shared/roles';
import { PNG_1X1, screenshot, signInQuickly } from './helpers';
import { filesRouteExists } from './record-fixtures';

test.describe('error catalogue', () => {
  test("a 500 shows 'Server Error Occured. Please Try Again !'", async ({ page }) => {
    await signInQuickly(page, 'operator', 'kobe');
    await page.route('**/kobe/api/city/admin-news/**', (route) => route.fulfill({ status: 500, json: { code: 'server_error', detail: 'boom' } }));
    await page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true }).click();
    await expect(page.getByText('Server Error Occured. Please Try Again !')).toBeVisible();
    await expect(page).toHaveURL(/\/kobe\/news/);
  });

  test('a 403 signs out and the login page shows the permission message', async ({ page }) => {
    await signInQuickly(page, 'operator', 'kobe');
    await page.route('**/kobe/api/city/admin-news/**', (route) => route.fulfill({ status: 403, json: { code: 'forbidden', detail: 'forbidden' } }));
    await page.getByTestId('side-menu').getByRole('link', { name: 'ニュース', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('この操作を行う権限がありません。')).toBeVisible();
  });
});

function entriesOf(list: readonly MenuEntry[]): MenuEntry[] {
  return list.flatMap((e) => [...(e.resource && registry.has(e.resource) ? [e] : []), ...entriesOf(e.children ?? [])]);
}

test('an image goes up through the upload widget and shows as a thumbnail', async ({ page }) => {
  const operator = { permission: 'Operator', is_captain_department: false, assign_city: [{ id: 1, name: 'kobe', name_ja: '神戸市' }] } as Pick<Profile, 'permission' | 'is_captain_department' | 'assign_city'>;
  const ability = defineAbilityFor(operator, 'kobe');
  const target = entriesOf(menuFor('Operator', 'kobe'))
    .map((e) => ({ e, def: getResource(e.resource!) }))
    .filter(({ def }) => !def.singleton && def.api.create && ability.can('create', def.name))
    .map(({ e, def }) => ({ e, field: Object.entries(def.schema.properties).find(([, p]) => !p.readOnly && p['x-upload'] && p['x-upload'].kind !== 'pdf')?.[0] }))
    .find((x) => x.field);
  test.skip(!target, "no resource of the Operator's kobe menu has an image upload field (x-upload) on its create form");

  await signInQuickly(page, 'operator', 'kobe');
  test.skip(!(await filesRouteExists(page.request, 'kobe')), 'the server has no upload route POST /{city}/api/files/ yet');

  const { e, field } = target!;
  await page.goto(`/kobe/${(e.route ?? e.resource!).replace(/^\/+|\/+$/g, '')}/create`);
  await expect(page.locator('form.generated-form')).toBeVisible();
  const uploaded = page.waitForResponse((r) => r.url().includes('/kobe/api/files/') && r.request().method() === 'POST');
  await page.locator(`input[type=file]#root_${field}, #root_${field} input[type=file]`).first().setInputFiles({ name: '神戸の写真.png', mimeType: 'image/png', buffer: PNG_1X1 });
  expect((await uploaded).status()).toBe(201);
  const thumbnail = page.locator('.ant-upload-list-item-done img');
  await expect(thumbnail).toBeVisible();
  await expect(thumbnail).toHaveAttribute('src', /\/files\//);
  await screenshot(page, 'upload');

  // a file the field does not take is refused before anything is sent
  await page.locator(`input[type=file]#root_${field}, #root_${field} input[type=file]`).first().setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(page.getByText(/notes\.txt：/)).toBeVisible();
});
