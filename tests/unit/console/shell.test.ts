/**
 * Pure rules of the shell (000 2.3, 4): menu paths and the breadcrumb's place of a path, the chat
 * badge's cap, the open tabs' bookkeeping, the bell's local reset, the persisted preferences' cookie
 * and theme, and the palette's matching.
 */
import { describe, expect, it } from 'vitest';
import type { Location } from 'react-router';
import { theme } from 'antd';
import { badgeText, dashboardPath, entryPath, pageLinks, placeOf, subPageTitleKey } from '@/console/layout/menu-paths';
import { createI18n } from '@/shared/i18n';
import { LANGUAGES } from '@/shared/constants';
import { isFormPath, MAX_TABS, stay, tabKeyOf, visit } from '@/console/layout/use-page-tabs';
import { unseen } from '@/console/layout/use-bell-counts';
import { cookieValue } from '@/console/layout/ui-preferences';
import { themeOf } from '@/console/layout/antd-config-provider';
import { matches } from '@/console/layout/command-palette';
import type { MenuEntry } from '@/shared/manifest';

const entries: MenuEntry[] = [
  { key: 'dashboard', page: 'dashboard', route: 'dashboard', icon: 'DashboardOutlined', title: 'menu.dashboard' },
  { key: 'news', resource: 'news', route: 'news', icon: 'ReadOutlined', title: 'menu.news' },
  {
    key: 'timesales',
    icon: 'ClockCircleOutlined',
    title: 'menu.timesales',
    children: [
      { key: 'timesales-common', resource: 'common_timesale', route: 'timesales/common', icon: 'ClockCircleOutlined', title: 'menu.timesales-common' },
      { key: 'timesales-statistic', page: 'dashboard', route: 'timesales/common/statistic', icon: 'BarChartOutlined', title: 'menu.timesales-statistic' },
    ],
  },
];

function loc(pathname: string, search = ''): Location {
  return { pathname, search, hash: '', state: null, key: Math.random().toString(36) };
}

describe('menu paths', () => {
  it('leads each entry to /{city}/{route}', () => {
    expect(entryPath('kobe', entries[1])).toBe('/kobe/news');
    expect(dashboardPath('kobe')).toBe('/kobe/dashboard');
    expect(pageLinks('kobe', entries).map((l) => l.path)).toEqual(['/kobe/dashboard', '/kobe/news', '/kobe/timesales/common', '/kobe/timesales/common/statistic']);
  });

  it('places a path under the longest matching entry, with its groups and the sub-page', () => {
    const links = pageLinks('kobe', entries);
    expect(placeOf(links, '/kobe/news/edit/3')).toMatchObject({ link: { key: 'news', titles: ['menu.news'] }, action: 'edit' });
    expect(placeOf(links, '/kobe/timesales/common/statistic')).toMatchObject({ link: { key: 'timesales-statistic', titles: ['menu.timesales', 'menu.timesales-statistic'] }, action: null });
    expect(placeOf(links, '/kobe/timesales/common/create')).toMatchObject({ link: { key: 'timesales-common' }, action: 'create' });
    expect(placeOf(links, '/kobe/newsletter')).toEqual({ link: null, action: null });
    expect(placeOf(links, '/kobe/news/trash')).toMatchObject({ link: { key: 'news' }, action: 'trash' });
  });

  it('names the recycle bin as a sub-page of its list in every language (the tab 「ニュース · ごみ箱」)', () => {
    const expected: Record<string, string> = { ja: 'ごみ箱', en: 'Recycle bin', zh: '回收站', es: 'Papelera' };
    for (const lng of LANGUAGES) {
      const i18n = createI18n(lng);
      const title = i18n.t(subPageTitleKey('trash'));
      expect(title, lng).toBe(expected[lng]);
      expect(title, lng).not.toBe(i18n.t(subPageTitleKey('show')));
    }
    expect(subPageTitleKey('edit')).toBe('actions.edit');
  });

  it('caps the chat badge at 99 (99+) and shows nothing for 0', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(Number.NaN)).toBeNull();
  });
});

describe('open tabs', () => {
  it('adds a tab per pathname and updates its location (query) in place', () => {
    let tabs = visit([], loc('/kobe/dashboard'), '/kobe/dashboard');
    tabs = visit(tabs, loc('/kobe/news'), '/kobe/dashboard');
    const searched = loc('/kobe/news', '?q=祭');
    tabs = visit(tabs, searched, '/kobe/dashboard');
    expect(tabs.map((t) => t.key)).toEqual(['/kobe/dashboard', '/kobe/news']);
    expect(tabs[1].location).toBe(searched);
    expect(visit(tabs, loc('/kobe'), '/kobe/dashboard', '/kobe')).toBe(tabs);
    expect(tabKeyOf('/kobe/news/')).toBe('/kobe/news');
  });

  it("records a page's own move within its tab (a list writing its query) and nothing else", () => {
    let tabs = visit([], loc('/kobe/dashboard'), '/kobe/dashboard');
    tabs = visit(tabs, loc('/kobe/news'), '/kobe/dashboard');
    const query = { pathname: '/kobe/news', search: '?filters=祭', hash: '' };
    const stayed = stay(tabs, '/kobe/news', query);
    expect(stayed[1].location).toMatchObject({ ...query, state: null });
    expect(stayed[0]).toBe(tabs[0]);
    expect(stay(stayed, '/kobe/news', query)).toBe(stayed);
    // a move to another tab's path, or from an unknown tab, is left to the router's location
    expect(stay(tabs, '/kobe/news', { pathname: '/kobe/news/create', search: '', hash: '' })).toBe(tabs);
    expect(stay(tabs, '/kobe/event', { pathname: '/kobe/event', search: '?x=1', hash: '' })).toBe(tabs);
  });

  it('keeps at most MAX_TABS, dropping the oldest but the pinned dashboard', () => {
    let tabs = visit([], loc('/kobe/dashboard'), '/kobe/dashboard');
    for (let i = 0; i < MAX_TABS + 3; i++) tabs = visit(tabs, loc(`/kobe/p${i}`), '/kobe/dashboard');
    expect(tabs).toHaveLength(MAX_TABS);
    expect(tabs[0].key).toBe('/kobe/dashboard');
    expect(tabs[1].key).toBe('/kobe/p4');
    expect(tabs[tabs.length - 1].key).toBe(`/kobe/p${MAX_TABS + 2}`);
  });

  it('knows a form path', () => {
    expect(isFormPath('/kobe/news/create')).toBe(true);
    expect(isFormPath('/kobe/news/edit/12')).toBe(true);
    expect(isFormPath('/kobe/news/show/12')).toBe(false);
    expect(isFormPath('/kobe/news')).toBe(false);
  });
});

describe('bell, preferences, palette', () => {
  it('counts only reports beyond those seen; a handled report lowers the mark', () => {
    expect(unseen(5, 0)).toEqual({ shown: 5, seen: 0 });
    expect(unseen(5, 5)).toEqual({ shown: 0, seen: 5 });
    expect(unseen(7, 5)).toEqual({ shown: 2, seen: 5 });
    expect(unseen(3, 5)).toEqual({ shown: 0, seen: 3 });
  });

  it('reads the sidebar cookie', () => {
    expect(cookieValue('a=1; sidebarStatus=0; b=2', 'sidebarStatus')).toBe('0');
    expect(cookieValue('a=1', 'sidebarStatus')).toBeNull();
  });

  it('makes the antd theme of the preferences', () => {
    const t = themeOf('mini', '#409EFF', true);
    expect(t.token).toMatchObject({ colorPrimary: '#409EFF', fontSize: 12 });
    expect(t.algorithm).toBe(theme.darkAlgorithm);
    // dark mode has its own contrast tokens (a11y-theme accessibleDarkTheme)
    expect(t.token).toMatchObject({ colorTextSecondary: 'rgba(255, 255, 255, 0.65)' });
    expect(t.components?.Menu).toHaveProperty('darkItemSelectedBg');
    expect(themeOf('medium', '#123456', false).algorithm).toBe(theme.defaultAlgorithm);
    expect(themeOf('medium', '#123456', false).token).not.toHaveProperty('fontSize');
  });

  it('matches every word of the query, case-insensitively', () => {
    expect(matches('ニュース / kobe/news', 'NEWS')).toBe(true);
    expect(matches('タイムセール / 統計', 'タイム 統計')).toBe(true);
    expect(matches('イベント', 'ニュース')).toBe(false);
  });
});
