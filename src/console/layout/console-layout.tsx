/**
 * The city layout (000 2.3): a sidebar with the city's menu (collapsing to nothing below 1024 px and
 * closing on route change there), the top bar and the page.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Layout, Typography } from 'antd';
import type { MenuEntry } from '@/shared/manifest';
import { useIsMobile } from '../hooks/use-is-mobile';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';

export function ConsoleLayout({ city, entries, children }: { city: string; entries: MenuEntry[]; children: ReactNode }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [collapsed, setCollapsed] = useState(mobile);
  const { pathname } = useLocation();

  useEffect(() => {
    if (mobile) setCollapsed(true);
  }, [mobile, pathname]);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        collapsible
        trigger={null}
        collapsed={collapsed}
        collapsedWidth={mobile ? 0 : 64}
        width={220}
        style={mobile ? { position: 'fixed', height: '100vh', zIndex: 20, left: 0, top: 0 } : undefined}
      >
        <div style={{ height: 56, display: 'flex', alignItems: 'center', padding: '0 16px', overflow: 'hidden' }}>
          <Typography.Text strong style={{ color: '#fff', whiteSpace: 'nowrap' }}>
            {collapsed ? '' : t('app.title')}
          </Typography.Text>
        </div>
        <SideMenu city={city} entries={entries} />
      </Layout.Sider>
      <Layout>
        <TopBar collapsed={collapsed} onToggle={() => setCollapsed((c) => !c)} />
        <Layout.Content style={{ padding: 16, minWidth: 0 }}>{children}</Layout.Content>
      </Layout>
    </Layout>
  );
}
