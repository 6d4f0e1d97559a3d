/**
 * The open-page tabs bar (000 2.3): one tab per open page titled from its menu entry (plus create,
 * edit or show), a close mark on each but the dashboard's, and a right-click menu and a menu at the
 * bar's end with refresh, close, close others and close all.
 * Keyboard (WAI-ARIA tabs pattern): the tabs are antd's (arrow keys, Home, End, Enter), Delete or
 * Backspace closes the focused tab (announced by `aria-keyshortcuts`; focus goes to its neighbour),
 * and the menu beside the bar is a button. The close mark is for the mouse only (aria-hidden, no Tab stop):
 * antd's own close buttons sit inside the tablist as extra role=tab buttons, which axe rejects
 * (aria-required-children) and screen readers count as tabs.
 */
import { useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Dropdown, Flex, Tabs, type MenuProps } from 'antd';
import { CloseOutlined, DownOutlined } from '@ant-design/icons';
import { placeOf, subPageTitleKey, type PageLink } from './menu-paths';
import type { PageTabs } from './use-page-tabs';

/** The title of a tab: its menu entry's (and the sub-page's: 「ニュース · ごみ箱」), else the path's last segment. */
export function useTabTitle(links: readonly PageLink[]): (pathname: string) => string {
  const { t } = useTranslation();
  return (pathname) => {
    const { link, action } = placeOf(links, pathname);
    if (!link) {
      const last = pathname.split('/').filter(Boolean).pop() ?? '';
      return last === 'profile' ? t('layout.profile') : decodeURIComponent(last);
    }
    const own = t(link.titles[link.titles.length - 1]);
    return action ? `${own} · ${t(subPageTitleKey(action))}` : own;
  };
}

/** The close mark of a tab: antd's close button look, for the mouse (keyboard: Delete, the menus). */
const CLOSE_STYLE = { marginInlineStart: 8, marginInlineEnd: -4, fontSize: 12, cursor: 'pointer' } as const;

export function PageTabsBar({ tabs: pageTabs, links }: { tabs: PageTabs; links: readonly PageLink[] }) {
  const { t } = useTranslation();
  const title = useTabTitle(links);
  const { tabs, activeKey, pinned, activate, refresh, close, closeOthers, closeAll } = pageTabs;
  const bar = useRef<HTMLDivElement>(null);
  // After a close by keyboard: the tab to focus once the closed one is gone (and, when it was the
  // shown one, once its neighbour is shown: the navigation commits later).
  const refocus = useRef<{ closed: string; shown: boolean; focus: string } | null>(null);

  // The tabs that close with Delete say so to assistive technology.
  useLayoutEffect(() => {
    for (const el of bar.current?.querySelectorAll<HTMLElement>('[data-node-key]') ?? []) {
      const tab = el.querySelector('[role="tab"]');
      if (el.dataset.nodeKey !== pinned) tab?.setAttribute('aria-keyshortcuts', 'Delete');
      else tab?.removeAttribute('aria-keyshortcuts');
    }
    const r = refocus.current;
    if (!r || tabs.some((x) => x.key === r.closed) || (r.shown && activeKey === r.closed)) return;
    refocus.current = null;
    const node = [...(bar.current?.querySelectorAll<HTMLElement>('[data-node-key]') ?? [])].find((el) => el.dataset.nodeKey === r.focus);
    node?.querySelector<HTMLElement>('[role="tab"]')?.focus();
  });

  /** Delete or Backspace on a focused tab closes it; the focus goes to the neighbour closing opens. */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Delete' && e.key !== 'Backspace') return;
    const key = (e.target as HTMLElement).closest<HTMLElement>('[role="tab"]')?.closest<HTMLElement>('[data-node-key]')?.dataset.nodeKey;
    if (!key || key === pinned || !tabs.some((x) => x.key === key)) return;
    e.preventDefault();
    const i = tabs.findIndex((x) => x.key === key);
    const focus = (tabs[i + 1] ?? tabs[i - 1])?.key;
    if (focus) refocus.current = { closed: key, shown: key === activeKey, focus };
    close(key);
  };

  const menuOf = (key: string): MenuProps => ({
    items: [
      { key: 'refresh', label: t('shell.tabs.refresh') },
      { key: 'close', label: t('shell.tabs.close'), disabled: key === pinned, extra: 'Delete' },
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
    <Flex ref={bar} onKeyDown={onKeyDown} align="start" gap={4}>
      <Tabs
        type="card"
        size="small"
        activeKey={activeKey}
        onChange={activate}
        data-testid="page-tabs"
        style={{ marginBottom: 0, flex: 1, minWidth: 0 }}
        tabBarStyle={{ marginBottom: 12 }}
        items={tabs.map((tab) => ({
          key: tab.key,
          label: (
            <Dropdown menu={menuOf(tab.key)} trigger={['contextMenu']}>
              <span>
                {title(tab.location.pathname)}
                {tab.key !== pinned && (
                  <CloseOutlined
                    aria-hidden
                    title={t('shell.tabs.close')}
                    data-testid="tab-close"
                    style={CLOSE_STYLE}
                    onClick={(e) => {
                      e.stopPropagation();
                      close(tab.key);
                    }}
                  />
                )}
              </span>
            </Dropdown>
          ),
        }))}
      />
      {/* Beside the tab bar, not in it (antd's tabBarExtraContent sits inside role=tablist). */}
      <Dropdown menu={menuOf(activeKey)} trigger={['click']} placement="bottomRight">
        <Button size="small" type="text" icon={<DownOutlined />} aria-label={t('shell.tabs.menu')} data-testid="tabs-menu" style={{ marginTop: 2 }} />
      </Dropdown>
    </Flex>
  );
}
