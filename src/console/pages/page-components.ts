/**
 * The hand-written page of each page name a manifest may use (src/shared/pages.ts PAGES), loaded
 * lazily, with its own texts where it has them (catalogue-scopes.ts PAGE_NAMESPACES). Typed against PAGES' names
 * so every page has a component. Each page gets its menu entry (the statistics page reads its `statistic`).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PAGES } from '@/shared/pages';
import { loadPageCatalogue } from './page-catalogue';
import type { PageProps } from './page-props';

type Page = ComponentType<PageProps>;

/**
 * Loads a hand-written page's code and texts; resolves to its component. Called early by
 * console-app.tsx for a page opened by its address, then by the page's lazy component (the same
 * modules: the second call waits for the first's).
 */
export const PAGE_LOADERS: Record<keyof typeof PAGES, () => Promise<Page>> = {
  dashboard: () => import('./dashboard-page').then((m) => m.DashboardPage),
  users: () => import('./users/users-page').then((m) => m.UsersPage),
  statistics: () => Promise.all([import('./statistics/statistics-page'), loadPageCatalogue('statistics')]).then(([m]) => m.StatisticsPage),
  maps: () => import('./maps/map-page').then((m) => m.MapPage),
  chat: () => Promise.all([import('./chat/chat-page'), loadPageCatalogue('chat')]).then(([m]) => m.ChatPage),
  'csv-import': () => Promise.all([import('./import/upload-page'), loadPageCatalogue('imports')]).then(([m]) => m.ImportUploadPage),
  'csv-import-history': () => Promise.all([import('./import/history-page'), loadPageCatalogue('imports')]).then(([m]) => m.ImportHistoryPage),
  'data-check': () => import('./data-check/data-check-page').then((m) => m.DataCheckPage),
};

export const PAGE_COMPONENTS: Record<keyof typeof PAGES, LazyExoticComponent<Page>> = Object.fromEntries(
  Object.entries(PAGE_LOADERS).map(([name, load]) => [name, lazy(() => load().then((component) => ({ default: component })))]),
);
