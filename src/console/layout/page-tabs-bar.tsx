/**
 * The open-page tabs bar (000 2.3): one tab per open page titled from its menu entry (plus create,
 * edit or show), a close button on each but the dashboard's, and a right-click menu and a menu at the
 * bar's end with refresh, close, close others and close all. Keyboard: the tabs are antd's (arrow
 * keys, Enter), the end menu is a button.
 */
import { useTranslation } from 'react-i18next';
import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { placeOf, type PageLink } from './menu-paths';
import type { PageTabs } from './use-page-tabs';

/** The title of a tab: its menu entry's (and the sub-page's), else the path's last segment. */
export function useTabTitle(links: readonly PageLink[]): (pathname: string) => string {
  const { t } = useTranslation();
  return (pathname) => {
    const { link, action } = placeOf(links, pathname);
    if (!link) {
      const last = pathname.split('/').filter(Boolean).pop() ?? '';
      return last === 'profile' ? t('layout.profile') : decodeURIComponent(last);
    }
    const own = t(link.titles[link.titles.length - 1]);
    return action ? `${own} · ${t(`actions.${action}`)}` : own;
  };
}

export function PageTabsBar({ tabs: pageTabs, links }: { tabs: PageTabs; links: readonly PageLink[] }) {
  const { t } = useTranslation();
  const title = useTabTitle(links);
  const { tabs, activeKey, pinned, activate, refresh, close, closeOthers, closeAll } = pageTabs;

  const menuOf = (key: string): MenuProps => ({
    items: [
      { key: 'refresh', label: t('shell.tabs.refresh') },
      { key: 'close', label: t('shell.tabs.close'), disabled: key === pinned },
      { key: 'others', label: t('shell.tabs.closeOthers') },
      { key: 'all', label: t('shell.tabs.closeAll') },
    ],
    onClick: ({ key: action, domEvent }) => {
      domEvent.stopPropagation();
      if (action === 'refresh') refresh(key);
      else if (action === 'close') close(key);
      else if (action === 'others') closeOthers(key);
      else closeAll();
    },
  });

  return (
    <Tabs
      type="editable-card"
      hideAdd
      size="small"
      activeKey={activeKey}
      onChange={activate}
      onEdit={(key, act) => act === 'remove' && typeof key === 'string' && close(key)}
      data-testid="page-tabs"
      style={{ marginBottom: 0 }}
      tabBarStyle={{ marginBottom: 12 }}
      items={tabs.map((tab) => ({
        key: tab.key,
        closable: tab.key !== pinned,
        label: (
          <Dropdown menu={menuOf(tab.key)} trigger={['contextMenu']}>
            <span>{title(tab.location.pathname)}</span>
          </Dropdown>
        ),
      }))}
      tabBarExtraContent={
        <Dropdown menu={menuOf(activeKey)} trigger={['click']} placement="bottomRight">
          <Button size="small" type="text" icon={<DownOutlined />} aria-label={t('shell.tabs.menu')} data-testid="tabs-menu" />
        </Dropdown>
      }
    />
  );
}
