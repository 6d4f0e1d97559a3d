/**
 * The city layout (000 2.3): a sidebar with the city's menu (its open/closed state kept in the
 * `sidebarStatus` cookie; below 1024 px it collapses to nothing and closes on every route change),
 * the top bar, the open-page tabs with every open tab's page kept rendered (one
 * `<Routes location={tab.location}>` each, from `renderPage`, out of the document when inactive:
 * kept-page.tsx), so a list keeps its filters, sort, page and scroll and a form its unsaved input;
 * the notification carousel on the dashboard, the back-to-top button after 400 px of scroll, the
 * maintenance page once the API answers 503, the help-centre notice and the command palette (Ctrl+K).
 */
import { lazy, memo, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Navigate, useLocation, type Location, type Path } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Layout, Typography } from 'antd';
import type { MenuEntry } from '@/shared/manifest';
import type { ResourceRoute } from '../resources/resource-routes';
import { useAfterFirstTask } from '../hooks/use-after-first-task';
import { useIsMobile } from '../hooks/use-is-mobile';
import { useMaintenance } from '../providers/maintenance';
import { CommandPalette } from './command-palette';
import { HelpNotice } from './help-notice';
import { KeptPage } from './kept-page';
import { MaintenancePage } from './maintenance-page';
import { dashboardPath, pageLinks } from './menu-paths';
import { PageTabsBar, useTabTitle } from './page-tabs-bar';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';
import { setUiPreferences, useUiPreferences } from './ui-preferences';
import { usePageTabs, type PageTab, type PageTabs } from './use-page-tabs';

// The carousel shows on the dashboard only: other pages do not load it (nor antd's Carousel).
const NoticeCarousel = lazy(() => import('./notice-carousel').then((m) => ({ default: m.NoticeCarousel })));
// The back-to-top button (antd's FloatButton) loads with the first scroll past BACK_TO_TOP_PX.
const BackTop = lazy(() => import('antd/es/float-button').then((m) => ({ default: m.default.BackTop })));

/** Scroll distance (px) after which the back-to-top button shows (000 2.3). */
export const BACK_TO_TOP_PX = 400;

export interface ConsoleLayoutProps {
  city: string;
  /** The sidebar's entries. */
  entries: MenuEntry[];
  /** The same with hidden entries: what names a page in its tab and its breadcrumb (000 2.3). */
  placed: MenuEntry[];
  routes: readonly ResourceRoute[];
  /** The city's pages at a location (a tab's). */
  renderPage: (location: Location) => ReactNode;
}

interface TabPageProps {
  tab: PageTab;
  active: boolean;
  stay: PageTabs['stay'];
  renderPage: ConsoleLayoutProps['renderPage'];
}

/**
 * One open tab's page. Rendered again only when its own tab, its being active or the page set
 * changes: a navigation elsewhere re-renders the layout but none of the kept pages (with ten open
 * lists, every click re-rendered ten lists).
 */
const TabPage = memo(function TabPage({ tab, active, stay, renderPage }: TabPageProps) {
  const onNavigate = useCallback((path: Path, state: unknown) => stay(tab.key, path, state), [stay, tab.key]);
  const page = useMemo(() => renderPage(tab.location), [renderPage, tab.location]);
  return (
    <KeptPage tabKey={tab.key} active={active} onNavigate={onNavigate}>
      {page}
    </KeptPage>
  );
});

export function ConsoleLayout({ city, entries, placed, routes, renderPage }: ConsoleLayoutProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const { sidebarOpen } = useUiPreferences();
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();
  const links = useMemo(() => pageLinks(city, entries), [city, entries]);
  const placedLinks = useMemo(() => pageLinks(city, placed), [city, placed]);
  const home = dashboardPath(city);
  const root = `/${encodeURIComponent(city)}`;
  const tabs = usePageTabs(home, root);
  const tabTitle = useTabTitle(placedLinks);
  const [noticeVersion, setNoticeVersion] = useState(0);
  const collapsed = mobile ? !mobileOpen : !sidebarOpen;
  const maintenance = useMaintenance();
  // The shell commits first, the pages in the next task (the list's load in two shorter tasks); the
  // side menu stays in the shell's: moved to either task, Lighthouse's TBT of the list grew.
  const pagesShown = useAfterFirstTask();

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
    setMobileOpen(false);
  }, [mobile, pathname]);

  // Each tab's scroll position, restored when it is shown again.
  const scrolls = useRef(new Map<string, number>());
  const activeRef = useRef(tabs.activeKey);
  const [scrolledFar, setScrolledFar] = useState(false);
  useEffect(() => {
    const onScroll = () => {
      scrolls.current.set(activeRef.current, window.scrollY);
      if (window.scrollY > BACK_TO_TOP_PX) setScrolledFar(true);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    activeRef.current = tabs.activeKey;
    window.scrollTo(0, scrolls.current.get(tabs.activeKey) ?? 0);
  }, [tabs.activeKey]);

  const toggle = useCallback(() => (mobile ? setMobileOpen((o) => !o) : setUiPreferences({ sidebarOpen: !sidebarOpen })), [mobile, sidebarOpen]);
  const onNotice = useCallback(() => setNoticeVersion((v) => v + 1), []);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        collapsible
        trigger={null}
        collapsed={collapsed}
        collapsedWidth={mobile ? 0 : 64}
        width={220}
        // The sidebar scrolls on its own (a city's menu is long); the page scrolls the content.
        style={mobile ? { position: 'fixed', height: '100vh', zIndex: 20, left: 0, top: 0 } : { position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
        data-testid="sidebar"
        data-collapsed={collapsed}
      >
        <div style={{ height: 56, display: 'flex', alignItems: 'center', padding: '0 16px', overflow: 'hidden' }}>
          <Typography.Text strong style={{ color: '#fff', whiteSpace: 'nowrap' }}>
            {collapsed ? '' : t('app.title')}
          </Typography.Text>
        </div>
        <SideMenu city={city} entries={entries} routes={routes} collapsed={collapsed} />
      </Layout.Sider>
      <Layout>
        <TopBar city={city} collapsed={collapsed} onToggle={toggle} links={placedLinks} routes={routes} onNotice={onNotice} />
        <Layout.Content style={{ padding: '8px 16px 16px', minWidth: 0 }}>
          {maintenance && <MaintenancePage />}
          <div hidden={maintenance}>
          <PageTabsBar tabs={tabs} links={placedLinks} />
          {tabs.activeKey === root && <Navigate to={home} replace />}
          {tabs.activeKey === home && (
            <Suspense fallback={null}>
              <NoticeCarousel city={city} version={noticeVersion} />
            </Suspense>
          )}
          {pagesShown && tabs.tabs.map((tab) => (
            <TabPage key={`${tab.key}#${tab.version}`} tab={tab} active={tab.key === tabs.activeKey} stay={tabs.stay} renderPage={renderPage} />
          ))}
          </div>
        </Layout.Content>
      </Layout>
      {scrolledFar && (
        <Suspense fallback={null}>
          <BackTop visibilityHeight={BACK_TO_TOP_PX} aria-label={t('shell.backToTop')} data-testid="back-to-top" />
        </Suspense>
      )}
      <HelpNotice />
      <CommandPalette links={links} tabs={tabs.tabs} tabTitle={tabTitle} />
    </Layout>
  );
}
