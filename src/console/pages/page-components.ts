/**
 * The hand-written page of each page name a manifest may use (src/shared/pages.ts PAGES), loaded
 * lazily, with its own texts where it has them (catalogue-scopes.ts PAGE_NAMESPACES). Typed against PAGES' names
 * so every page has a component. Each page gets its menu entry (the statistics page reads its `statistic`).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { MenuEntry } from '@/shared/manifest';
import type { PAGES } from '@/shared/pages';
import { loadPageCatalogue } from './page-catalogue';

/** What a hand-written page is given: the menu entry it was opened by. */
export interface PageProps {
  entry?: MenuEntry;
}

export const PAGE_COMPONENTS: Record<keyof typeof PAGES, LazyExoticComponent<ComponentType<PageProps>>> = {
  dashboard: lazy(() => import('./dashboard-page').then((m) => ({ default: m.DashboardPage }))),
  users: lazy(() => import('./users/users-page').then((m) => ({ default: m.UsersPage }))),
  statistics: lazy(() => Promise.all([import('./statistics/statistics-page'), loadPageCatalogue('statistics')]).then(([m]) => ({ default: m.StatisticsPage }))),
  maps: lazy(() => import('./maps/map-page').then((m) => ({ default: m.MapPage }))),
  chat: lazy(() => Promise.all([import('./chat/chat-page'), loadPageCatalogue('chat')]).then(([m]) => ({ default: m.ChatPage }))),
  'csv-import': lazy(() => Promise.all([import('./import/upload-page'), loadPageCatalogue('imports')]).then(([m]) => ({ default: m.ImportUploadPage }))),
  'csv-import-history': lazy(() => Promise.all([import('./import/history-page'), loadPageCatalogue('imports')]).then(([m]) => ({ default: m.ImportHistoryPage }))),
};
