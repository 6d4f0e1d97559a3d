/**
 * The sidebar of each demo role (README 'Demo accounts') shows exactly its menu of the reviewed
 * fixture tests/unit/shared/fixtures/menus-by-city-role.json (000 6 menu sets): first the city's
 * Japanese name, then the entries in order with their Japanese titles; each group, once opened,
 * shows its children. Also a city of its own for the Administrator (toyonaka2's features) and the
 * member set of cippoweb.
 */
import { expect, test } from './fixtures';
import { createI18n } from '../../src/shared/i18n';
import { manifestCities, menuSetFor, resolveManifest, type MenuEntry } from '../../src/shared/manifest';
import type { Role } from '../../src/shared/roles';
import fixture from '../unit/shared/fixtures/menus-by-city-role.json' with { type: 'json' };
import { signInQuickly } from './helpers';

type Shown = string | Record<string, string[]>;
type Item = string | { title: string; children: string[] };
const ja = createI18n('ja');

/** The fixture's entries of (city, role) as the sidebar should show them: translated titles. */
function expectedItems(city: string, role: Role): Item[] {
  const byKey = new Map<string, MenuEntry>();
  const walk = (list: MenuEntry[]) => list.forEach((e) => (byKey.set(e.key, e), walk(e.children ?? [])));
  walk(resolveManifest(city)[menuSetFor(role, city)] ?? []);
  const title = (key: string) => ja.t(byKey.get(key)!.title);
  return (fixture as Record<string, Record<string, Shown[]>>)[city][role].map((s) =>
    typeof s === 'string' ? title(s) : { title: title(Object.keys(s)[0]), children: Object.values(s)[0].map(title) },
  );
}

const RUNS: Array<{ username: string; role: Role; city: string }> = [
  { username: 'administrator', role: 'Administrator', city: 'kobe' },
  { username: 'administrator', role: 'Administrator', city: 'toyonaka2' },
  { username: 'operator', role: 'Operator', city: 'kobe' },
  { username: 'operator', role: 'Operator', city: 'fukuoka' },
  { username: 'president', role: 'President', city: 'kobe' },
  { username: 'captain', role: 'Captain', city: 'kobe' },
  { username: 'teacher', role: 'Teacher', city: 'kobe' },
  { username: 'advertiser', role: 'Advertiser', city: 'kobe' },
  { username: 'police', role: 'Police', city: 'kobe' },
  { username: 'member', role: 'Member', city: 'cippoweb' },
];

for (const { username, role, city } of RUNS) {
  test(`${username} in ${city} sees the ${role} menu of the fixture`, async ({ page }) => {
    await signInQuickly(page, username, city);
    const menu = page.getByTestId('side-menu');
    await expect(menu).toBeVisible();
    // Open every group (top-level sub-menus), one after the other.
    const groups = menu.locator(':scope > li.ant-menu-submenu');
    const count = await groups.count();
    for (let i = 0; i < count; i++) {
      const group = groups.nth(i);
      await group.locator(':scope > .ant-menu-submenu-title').click();
      await expect(group.locator(':scope > ul.ant-menu-sub')).toBeVisible();
    }
    // An entry's title as shown, without its unread badge (the chat entries' count, when it has come).
    const shown = await menu.evaluate((root) => {
      const title = (el: Element | null) => {
        if (!el) return '';
        const copy = el.cloneNode(true) as Element;
        copy.querySelectorAll('.ant-badge, [data-visually-hidden]').forEach((b) => b.remove());
        return (copy.textContent ?? '').trim();
      };
      return [...root.children]
        .filter((li) => li.matches('li.ant-menu-item, li.ant-menu-submenu'))
        .map((li) =>
          li.classList.contains('ant-menu-submenu')
            ? {
                title: title(li.querySelector(':scope > .ant-menu-submenu-title .ant-menu-title-content')),
                children: [...li.querySelectorAll(':scope > ul.ant-menu-sub > li.ant-menu-item .ant-menu-title-content')].map(title),
              }
            : title(li.querySelector('.ant-menu-title-content')),
        );
    });
    const nameJa = manifestCities().find((c) => c.name === city)!.name_ja;
    expect(shown).toEqual([nameJa, ...expectedItems(city, role)]);
  });
}

test('a hand-written page opens from the sidebar (the map); a group opens its pages (CSV upload)', async ({ page }) => {
  await signInQuickly(page, 'operator', 'kobe');
  const menu = page.getByTestId('side-menu');
  await menu.getByRole('link', { name: '地図', exact: true }).click();
  await expect(page).toHaveURL(/\/kobe\/map$/);
  await expect(page.getByRole('heading', { name: '地図' })).toBeVisible();
  await expect(page.getByRole('region', { name: '勤務地と店舗の地図' })).toBeVisible();
  await menu.getByText('CSVインポート', { exact: true }).click();
  await menu.getByRole('link', { name: 'CSVアップロード', exact: true }).click();
  await expect(page).toHaveURL(/\/kobe\/import\/upload$/);
  await expect(page.getByRole('heading', { name: 'CSVインポート' })).toBeVisible();
  await expect(page.getByText('CSVファイルをここにドラッグするか、クリックして選んでください')).toBeVisible();
});
