/**
 * The hand-written page of each page name a manifest may use (src/shared/pages.ts PAGES), loaded
 * lazily, with its own texts where it has them (i18n.ts PAGE_NAMESPACES). Typed against PAGES' names
 * so every page has a component; the pages that come later share the placeholder page
 * (PLACEHOLDER_PAGES). Each page gets its menu entry (the statistics page reads its `statistic`).
 */
import { createElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { MenuEntry } from '@/shared/manifest';
import type { PAGES, PlaceholderPage } from '@/shared/pages';
import { loadPageCatalogue } from './page-catalogue';

function placeholder(name: PlaceholderPage): LazyExoticComponent<ComponentType> {
  return lazy(() => import('./placeholder-page').then((m) => ({ default: () => createElement(m.PlaceholderPage, { name }) })));
}

/** What a hand-written page is given: the menu entry it was opened by. */
export interface PageProps {
  entry?: MenuEntry;
}

export const PAGE_COMPONENTS: Record<keyof typeof PAGES, LazyExoticComponent<ComponentType<PageProps>>> = {
  dashboard: lazy(() => import('./dashboard-page').then((m) => ({ default: m.DashboardPage }))),
  users: lazy(() => import('./users/users-page').then((m) => ({ default: m.UsersPage }))),
  statistics: lazy(() => Promise.all([import('./statistics/statistics-page'), loadPageCatalogue('statistics')]).then(([m]) => ({ default: m.StatisticsPage }))),
  maps: placeholder('maps'),
  chat: lazy(() => Promise.all([import('./chat/chat-page'), loadPageCatalogue('chat')]).then(([m]) => ({ default: m.ChatPage }))),
  'csv-import': lazy(() => Promise.all([import('./import/upload-page'), loadPageCatalogue('imports')]).then(([m]) => ({ default: m.ImportUploadPage }))),
  'csv-import-history': lazy(() => Promise.all([import('./import/history-page'), loadPageCatalogue('imports')]).then(([m]) => ({ default: m.ImportHistoryPage }))),
};
