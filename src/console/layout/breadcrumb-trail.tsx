/**
 * The breadcrumb of the top bar (000 2.3): always starts with the dashboard, then the menu groups and
 * the entry of the current page (from the menu entry titles), then create / edit / show / ごみ箱 below it.
 */
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Breadcrumb } from 'antd';
import { dashboardPath, placeOf, subPageTitleKey, type PageLink } from './menu-paths';

export function BreadcrumbTrail({ city, links }: { city: string; links: readonly PageLink[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const home = dashboardPath(city);
  const { link, action } = placeOf(links, pathname);
  const items: { title: React.ReactNode }[] = [{ title: pathname === home ? t('menu.dashboard') : <Link to={home}>{t('menu.dashboard')}</Link> }];
  if (link && link.path !== home) {
    link.titles.slice(0, -1).forEach((g) => items.push({ title: t(g) }));
    const own = t(link.titles[link.titles.length - 1]);
    items.push({ title: action ? <Link to={link.path}>{own}</Link> : own });
    if (action) items.push({ title: t(subPageTitleKey(action)) });
  }
  return <Breadcrumb items={items} data-testid="breadcrumb" style={{ whiteSpace: 'nowrap', overflow: 'hidden' }} />;
}
