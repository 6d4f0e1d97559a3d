/**
 * The sidebar menu (000 2.3): first the city's Japanese name (a link to /city when the user has more
 * than one assigned city, asking first when a form has unsaved input; kurashiki's on two lines),
 * then the entries of the city's manifest for the role, titles translated, icons by name, children as sub-menus. The entry of the current route is
 * selected. The chat entry carries the unread badge capped at 99 ('99+', none at 0): its count is
 * the user's `chat_admin_unread` (001 7.9 chatAdminUnread; our server is the document store the spec
 * names): from the user info, reloaded on every route change (000 4), and live for Administrator and
 * Operator over GET /default/api/users/chat-unread/stream (use-chat-unread.ts). The chat service
 * writes it with PUT /default/api/users/chat-unread/ {username, count}.
 */
import { memo, useMemo } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Badge, Menu, type MenuProps } from 'antd';
import type { MenuEntry } from '@/shared/manifest';
import { registry } from '@/shared/registry';
import { prefetchList } from '../providers/data-provider';
import type { ResourceRoute } from '../resources/resource-routes';
import { firstListRequest } from '../resources/use-resource-list';
import { useCityName } from '../hooks/use-city-name';
import { useSessionValue } from '../hooks/use-session';
import { badgeText, entryPath } from './menu-paths';
import { MenuIconOf } from './menu-icons';
import { useChatUnread } from './use-chat-unread';
import { useUnsavedConfirm } from './use-unsaved-confirm';
import { VisuallyHidden } from './visually-hidden';

type Item = Required<MenuProps>['items'][number];

/** Cities whose name the sidebar shows on two lines (000 2.3). */
export const TWO_LINE_CITIES: readonly string[] = ['kurashiki'];

function isChat(e: MenuEntry): boolean {
  return e.key === 'chat' || e.page === 'chat' || e.route === 'chat';
}

/** The city's name: one line, or for kurashiki the Japanese name over the city's code. */
function CityName({ city, name }: { city: string; name: string }) {
  if (!TWO_LINE_CITIES.includes(city)) return <>{name}</>;
  return (
    <span data-testid="city-name-two-lines" style={{ display: 'inline-flex', flexDirection: 'column', lineHeight: 1.3, verticalAlign: 'middle' }}>
      <span>{name}</span>
      <span style={{ fontSize: 11, opacity: 0.75 }}>{city.charAt(0).toUpperCase() + city.slice(1)}</span>
    </span>
  );
}

/** The key of the entry whose path is the longest prefix of `pathname` ('' when none). */
function selectedEntry(city: string, entries: readonly MenuEntry[], pathname: string): string {
  let best = { key: '', len: 0 };
  const walk = (list: readonly MenuEntry[]) => {
    for (const e of list) {
      const path = entryPath(city, e);
      if ((pathname === path || pathname.startsWith(`${path}/`)) && path.length > best.len) best = { key: e.key, len: path.length };
      if (e.children) walk(e.children);
    }
  };
  walk(entries);
  return best.key;
}

/**
 * A click on the entry of a list not yet shown in the session asks for the list's first page at
 * once (../providers/data-provider `prefetchList`), while the page's code renders: its rows come
 * with its first frame. A list with data in the query cache (an open tab) is not asked for: Refine
 * keys list queries `['data', provider, identifier, 'list', …]`.
 */
function prefetcherOf(city: string, routes: readonly ResourceRoute[], queryClient: QueryClient): (key: string) => (() => void) | undefined {
  const lists = new Map(routes.filter((r) => registry.get(r.resource)?.singleton === false).map((r) => [r.identifier, r]));
  return (key) => {
    const route = lists.get(key);
    if (!route) return undefined;
    return () => {
      if (queryClient.getQueryCache().findAll({ queryKey: ['data', 'default', route.identifier, 'list'] }).length === 0) prefetchList(firstListRequest(route, city));
    };
  };
}

/**
 * The city's menu. `collapsed`: the sidebar shows icons only, so each top-level item has a tooltip
 * with its label; open, the labels are there and the ~60 items mount no tooltip (each one a trigger
 * with its own hooks and observers: docs/performance.md). Memoized: a re-render of the layout (its
 * tabs, a notice) leaves the menu alone.
 */
export const SideMenu = memo(function SideMenu({ city, entries, routes, collapsed }: { city: string; entries: MenuEntry[]; routes: readonly ResourceRoute[]; collapsed: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const profile = useSessionValue('profile');
  const cityName = useCityName(city);
  const severalCities = (profile?.assign_city.length ?? 0) > 1;
  const chatUnread = useChatUnread();
  const chatBadge = badgeText(chatUnread);

  const confirmLoss = useUnsavedConfirm();
  const navigate = useNavigate();
  // The items depend on the menu, not on the path: a navigation only moves the selection.
  const queryClient = useQueryClient();
  const items = useMemo(() => {
    const prefetcher = prefetcherOf(city, routes, queryClient);
    const toItem = (e: MenuEntry): Item => {
      const path = entryPath(city, e);
      if (e.children?.length) {
        return { key: e.key, icon: <MenuIconOf name={e.icon} />, label: t(e.title), children: e.children.map(toItem) };
      }
      const title = t(e.title);
      const label =
        isChat(e) && chatBadge ? (
          // The name begins with what is shown, the title and the badge's number (WCAG 2.5.3), then the
          // count in words; the badge itself is hidden from the name (its digits would be read one by one).
          <Link to={path}>
            {title}{' '}
            <span aria-hidden>
              <Badge count={chatBadge} size="small" style={{ marginInlineStart: 6 }} data-testid="chat-badge" />
            </span>
            <VisuallyHidden>{` ${chatBadge} ${t('shell.chatUnread', { count: Math.floor(chatUnread) })}`}</VisuallyHidden>
          </Link>
        ) : (
          <Link to={path} onClick={prefetcher(e.key)}>
            {title}
          </Link>
        );
      return { key: e.key, icon: <MenuIconOf name={e.icon} />, label };
    };
    const twoLines = TWO_LINE_CITIES.includes(city);
    const cityItem: Item = {
      key: '__city',
      icon: <MenuIconOf name="city" />,
      label: severalCities ? (
        <Link
          to="/city"
          title={t('layout.chooseCity')}
          onClick={(e) => {
            // Leaving the city closes its tabs: unsaved input asks first.
            e.preventDefault();
            confirmLoss(() => navigate('/city'));
          }}
        >
          <CityName city={city} name={cityName} />
        </Link>
      ) : (
        <CityName city={city} name={cityName} />
      ),
      title: cityName,
      style: twoLines ? { height: 'auto', lineHeight: 1.3, paddingBlock: 6 } : undefined,
    };
    return [cityItem, { type: 'divider' } as Item, ...entries.map(toItem)];
  }, [city, entries, routes, queryClient, t, cityName, severalCities, chatBadge, chatUnread, confirmLoss, navigate]);
  const selected = useMemo(() => selectedEntry(city, entries, pathname), [city, entries, pathname]);

  return <Menu mode="inline" theme="dark" items={items} selectedKeys={selected ? [selected] : []} _internalDisableMenuItemTitleTooltip={!collapsed} data-testid="side-menu" />;
});
