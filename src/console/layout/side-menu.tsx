/**
 * The sidebar menu (000 2.3): first the city's Japanese name (a link to /city when the user has more
 * than one assigned city), then the entries of the city's manifest for the role, titles translated,
 * icons by name, children as sub-menus. The entry of the current route is selected.
 */
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Menu, type MenuProps } from 'antd';
import type { MenuEntry } from '@/shared/manifest';
import { useCityName } from '../hooks/use-city-name';
import { useSession } from '../hooks/use-session';
import { MenuIconOf } from './menu-icons';

type Item = Required<MenuProps>['items'][number];

function entryPath(city: string, e: MenuEntry): string {
  return `/${encodeURIComponent(city)}/${(e.route ?? e.resource ?? e.page ?? e.key).replace(/^\/+/, '')}`;
}

export function SideMenu({ city, entries }: { city: string; entries: MenuEntry[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { profile } = useSession();
  const cityName = useCityName(city);
  const severalCities = (profile?.assign_city.length ?? 0) > 1;

  const { items, selected } = useMemo(() => {
    let best: { key: string; len: number } = { key: '', len: 0 };
    const toItem = (e: MenuEntry): Item => {
      const path = entryPath(city, e);
      if ((pathname === path || pathname.startsWith(`${path}/`)) && path.length > best.len) best = { key: e.key, len: path.length };
      if (e.children?.length) {
        return { key: e.key, icon: <MenuIconOf name={e.icon} />, label: t(e.title), children: e.children.map(toItem) };
      }
      return { key: e.key, icon: <MenuIconOf name={e.icon} />, label: <Link to={path}>{t(e.title)}</Link> };
    };
    const cityItem: Item = {
      key: '__city',
      icon: <MenuIconOf name="city" />,
      label: severalCities ? (
        <Link to="/city" title={t('layout.chooseCity')}>
          {cityName}
        </Link>
      ) : (
        <span>{cityName}</span>
      ),
      title: cityName,
    };
    const list = [cityItem, { type: 'divider' } as Item, ...entries.map(toItem)];
    return { items: list, selected: best.key };
  }, [city, entries, pathname, t, cityName, severalCities]);

  return <Menu mode="inline" theme="dark" items={items} selectedKeys={selected ? [selected] : []} data-testid="side-menu" />;
}
