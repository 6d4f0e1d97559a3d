/**
 * Every resource of the Operator's kobe menu through the generated pages (the menus grow: nothing is
 * named here). For each: a record made through the API (`sampleRecord`, with references and files
 * filled in) shows as a row of its list (found with the search box when there is one), its detail
 * page shows its values, and its create page shows the form. A singleton shows its settings page.
 * One signed-in page walks them all without reloading, to keep the suite fast.
 */
import { expect, test, type Locator, type Page } from './fixtures';
import { defineAbilityFor } from '../../src/shared/ability';
import { createI18n } from '../../src/shared/i18n';
import { menuFor, type MenuEntry } from '../../src/shared/manifest';
import { fillPath, getResource, registry, type FieldSchema, type ResourceDef } from '../../src/shared/registry';
import type { Profile } from '../../src/shared/roles';
import { signInQuickly, spaGoto } from './helpers';
import { createRecord, recordBody } from './record-fixtures';

const CITY = 'kobe';

function resourceEntries(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((e) => [...(e.resource && registry.has(e.resource) ? [e] : []), ...resourceEntries(e.children ?? [])]);
}

const operator = { permission: 'Operator', is_captain_department: false, assign_city: [{ id: 1, name: CITY, name_ja: '神戸市' }] } as Pick<Profile, 'permission' | 'is_captain_department' | 'assign_city'>;
const ability = defineAbilityFor(operator, CITY);
// Each resource once, through its first entry (several routes may show one resource, 000 2.2).
const entries = resourceEntries(menuFor('Operator', CITY)).filter((e, i, all) => all.findIndex((o) => o.resource === e.resource) === i);
const ja = createI18n('ja');

/** A plain string of the record that the detail page shows as it is. */
function visibleText(def: ResourceDef, record: Record<string, unknown>): string | undefined {
  const plain = (p: FieldSchema) => !p.enum && !p.format && !p['x-upload'] && !p['x-ref'] && !p['x-widget'];
  const field = Object.keys(record).find((k) => {
    const p = def.schema.properties[k];
    return p && plain(p) && typeof record[k] === 'string' && (record[k] as string).trim().length > 2;
  });
  return field ? (record[field] as string) : undefined;
}

test.describe(`the resources of the Operator's ${CITY} menu`, () => {
  let page: Page;

  test.beforeAll(async ({ browser }, info) => {
    const { baseURL, locale, timezoneId, viewport } = info.project.use;
    page = await browser.newPage({ baseURL, locale, timezoneId, viewport });
    await signInQuickly(page, 'operator', CITY);
  });
  test.afterAll(async () => {
    await page.close();
  });

  test('the menu names resources', () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  entries.forEach((entry, n) => {
    test(`${entry.key}: list, detail and form of ${entry.resource}`, async () => {
      const def = getResource(entry.resource!);
      const base = `/${CITY}/${(entry.route ?? entry.resource!).replace(/^\/+|\/+$/g, '')}`;
      // Each page is recognised by its own heading: a client-side navigation keeps the previous
      // page on screen until the next one is ready.
      const title = ja.t(entry.title);
      const heading = (name: string) => page.getByRole('heading', { name, exact: true });
      // locator.waitFor reacts at once; expect(…).toBeVisible() retries at 100/250/500 ms steps.
      const seen = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
      if (!ability.can('read', def.name)) {
        await spaGoto(page, base);
        await expect(page).toHaveURL(/\/401\?noGoBack=true$/);
        return;
      }
      // Small: sample numbers are `i` and must stay within the schemas' ranges (latitude ≤ 85…).
      const i = n + 1;

      if (def.singleton) {
        let text: string | undefined;
        if (def.api.update && ability.can('update', def.name)) {
          const body = await recordBody(page.request, CITY, def, i);
          const res = await page.request.fetch(fillPath(def.api.update.path, { city: CITY }), { method: def.api.update.method, data: body });
          expect(res.status(), await res.text()).toBeLessThan(300);
          text = visibleText(def, body);
        }
        await spaGoto(page, base);
        await seen(heading(title));
        await seen(page.getByTestId('show-fields'));
        if (text) await seen(page.getByTestId('show-fields').getByText(text));
        return;
      }

      let id: unknown;
      let text: string | undefined;
      let term = '';
      if (def.api.create && ability.can('create', def.name)) {
        const row = await createRecord(page.request, CITY, def, i);
        id = row[def.idField];
        text = visibleText(def, row);
        const searchField = def.list.search.find((f) => typeof row[f] === 'string' && (row[f] as string).length > 0);
        if (searchField) term = row[searchField] as string;
      }

      // the list, with the new row (searched for, or first when the list shows the newest first)
      await spaGoto(page, base);
      await seen(heading(title));
      await seen(page.locator('.ant-table'));
      if (id !== undefined) {
        const row = page.locator(`tr[data-row-key="${String(id)}"]`);
        const newestFirst = def.list.defaultSort.order === 'desc' && [def.createdField, def.idField].includes(def.list.defaultSort.field);
        if (newestFirst) {
          await seen(row);
        } else if (term) {
          await page.getByPlaceholder('検索').fill(term);
          await page.getByPlaceholder('検索').press('Enter');
          await seen(row);
        }
      }

      // the detail page
      if (id !== undefined && def.api.show) {
        await spaGoto(page, `${base}/show/${encodeURIComponent(String(id))}`);
        await seen(heading(ja.t('pages.showTitle', { resource: title })));
        await seen(page.getByTestId('show-fields'));
        if (text) await seen(page.getByTestId('show-fields').getByText(text, { exact: false }));
      }

      // the create form
      if (def.api.create && ability.can('create', def.name)) {
        await spaGoto(page, `${base}/create`);
        await seen(heading(ja.t('pages.createTitle', { resource: title })));
        await seen(page.locator('form.generated-form'));
        await seen(page.getByRole('button', { name: '保存' }));
      }
    });
  });
});
