/**
 * The hand-written page of each page name a manifest may use (src/shared/pages.ts PAGES), loaded
 * lazily. Typed against PAGES' names so every page has a component.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PAGES } from '@/shared/pages';

export const PAGE_COMPONENTS: Record<keyof typeof PAGES, LazyExoticComponent<ComponentType>> = {
  dashboard: lazy(() => import('./dashboard-page').then((m) => ({ default: m.DashboardPage }))),
};
