/**
 * The sidebar renders the reviewed menu fixture (000 6 menu sets; 000 2.3 sidebar): for every
 * (city, role) of tests/unit/shared/fixtures/menus-by-city-role.json, SideMenu rendered to HTML with
 * the real Japanese texts shows the city's name first, then exactly the fixture's top-level entries
 * in order, each with its translated title, a leaf as a link to /{city}/{route}. (Sub-menus are
 * closed, so their children are not in the HTML: the Playwright run opens them.) The chat entry's
 * badge shows the user info's chat_admin_unread, 99+ above 99, nothing at 0.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { AbilityProvider } from '@casl/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { i18n, loadConsoleCatalogues } from '@/console/i18n';
import { setProfile } from '@/console/providers/session';
import { SideMenu, TWO_LINE_CITIES } from '@/console/layout/side-menu';
import { resourceRoutes } from '@/console/resources/resource-routes';
import { defineAbilityFor } from '@/shared/ability';
import { menuFor, resolveManifest, menuSetFor, routeEntriesFor, type MenuEntry } from '@/shared/manifest';
import { ROLES, type Profile, type Role } from '@/shared/roles';
import fixture from '../shared/fixtures/menus-by-city-role.json' with { type: 'json' };

vi.mock('@/console/hooks/use-city-name', () => ({ useCityName: (city: string) => `city:${city}` }));

type Shown = string | Record<string, string[]>;
const expected = fixture as Record<string, Record<Role, Shown[]>>;

function profileOf(role: Role, city: string): Profile {
  const cities = [{ id: 1, name: city, name_ja: city }];
  return {
    id: 1, username: 'u', name: 'u', email: '', avatar: null, introduction: null,
    permission: role === 'Captain' ? 'Member' : role, is_captain_department: role === 'Captain',
    assign_city: cities, active_city: cities, school: null, group: null, classes: [], advertisements: [], email_verified: true,
  };
}

/** Every entry of a city's set by key (children included), to find the fixture keys' titles and routes. */
function entriesByKey(role: Role, city: string): Map<string, MenuEntry> {
  const out = new Map<string, MenuEntry>();
  const walk = (list: MenuEntry[]) => list.forEach((e) => (out.set(e.key, e), walk(e.children ?? [])));
  walk(resolveManifest(city)[menuSetFor(role, city)] ?? []);
  return out;
}

/** The top-level items of the rendered menu: [link or null, text], in document order. */
function renderedItems(html: string): Array<[string | null, string]> {
  return [...html.matchAll(/<span class="ant-menu-title-content">(?:<a href="([^"]*)"[^>]*>|<span>)?([^<]*)/g)].map((m) => [m[1] ?? null, m[2]]);
}

/** The SideMenu of the session's profile as HTML. */
function render(role: Role, city: string): string {
  return renderToStaticMarkup(
    <AbilityProvider value={defineAbilityFor(profileOf(role, city), city)}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient()}>
          <MemoryRouter initialEntries={[`/${city}/dashboard`]}>
            <SideMenu city={city} entries={menuFor(role, city)} routes={resourceRoutes(routeEntriesFor(role, city))} collapsed={false} />
          </MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>
    </AbilityProvider>,
  );
}

describe('the chat badge', () => {
  it.each([
    [5, '5'],
    [150, '99+'],
    [0, null],
  ])('shows chat_admin_unread %s as %s', async (count, shown) => {
    await i18n.changeLanguage('ja');
    await loadConsoleCatalogues();
    setProfile({ ...profileOf('Operator', 'kobe'), chat_admin_unread: count });
    const html = render('Operator', 'kobe');
    expect(html).toContain('/kobe/chat');
    if (shown === null) expect(html).not.toContain('chat-badge');
    else {
      // Named by what it shows (WCAG 2.5.3): the badge, then the count read to screen readers.
      expect(html).toContain('chat-badge');
      expect(html).toContain(`未読 ${count} 件`);
      expect(html).not.toMatch(/aria-label="チャット/);
      // The badge shows the count as the spec caps it (99+ past 99).
      expect(html.replace(/<[^>]+>/g, '')).toContain(`チャット ${shown} ${shown} 未読 ${count} 件`);
    }
  });
});

describe('SideMenu shows the fixture of every (city, role)', () => {
  const pairs = Object.keys(expected).flatMap((city) => ROLES.map((role) => [city, role] as [string, Role]));
  it('the fixture lists every role of every city', () => {
    for (const city of Object.keys(expected)) expect(Object.keys(expected[city]).sort()).toEqual([...ROLES].sort());
  });
  it.each(pairs)('%s as %s', async (city, role) => {
    await i18n.changeLanguage('ja');
    await loadConsoleCatalogues(); // the menu titles are a console namespace, as inside a city
    setProfile(profileOf(role, city));
    const html = render(role, city);
    const byKey = entriesByKey(role, city);
    const want = expected[city][role].map((shown): [string | null, string] => {
      const key = typeof shown === 'string' ? shown : Object.keys(shown)[0];
      const e = byKey.get(key)!;
      expect(e, `${city} ${role}: fixture key ${key}`).toBeDefined();
      return [typeof shown === 'string' ? `/${city}/${e.route ?? e.resource ?? e.page}` : null, i18n.t(e.title)];
    });
    const [cityItem, ...items] = renderedItems(html);
    if (TWO_LINE_CITIES.includes(city)) {
      // 000 2.3: kurashiki's name on two lines, the Japanese name first.
      expect(html).toContain(`<span data-testid="city-name-two-lines"`);
      expect(html).toMatch(new RegExp(`city-name-two-lines"[^>]*><span>city:${city}</span>`));
    } else {
      expect(cityItem).toEqual([null, `city:${city}`]);
    }
    expect(items).toEqual(want);
    // Every title is translated (no raw i18n key on screen).
    for (const [, text] of items) expect(text).not.toMatch(/^menu\./);
  });
});
