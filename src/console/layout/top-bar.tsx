/**
 * The top bar (000 2.3): the sidebar toggle (hidden in cippoweb), the breadcrumb (from the dashboard),
 * then the notification bell, fullscreen, size, language and theme pickers, home, the user's name
 * linking to the profile (/{city}/profile), contact-us (an external help form, hidden for
 * Advertiser) and logout (Refine's useLogout; unsaved form input asks first).
 */
import { memo } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLogout } from '@refinedev/core';
import { Button, Flex, Layout, Tooltip, theme } from 'antd';
import { CustomerServiceOutlined, HomeOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { MEMBER_CITY } from '@/shared/constants';
import { useAbility } from '@casl/react';
import type { AppAbility } from '@/shared/ability';
import type { ResourceRoute } from '../resources/resource-routes';
import { useSessionValue } from '../hooks/use-session';
import { useIsMobile } from '../hooks/use-is-mobile';
import { BreadcrumbTrail } from './breadcrumb-trail';
import { FullscreenButton } from './fullscreen-button';
import { LanguageSwitch } from './language-switch';
import { dashboardPath, type PageLink } from './menu-paths';
import { NotificationBell } from './notification-bell';
import { SizeSwitch } from './size-switch';
import { ThemePicker } from './theme-picker';
import { useUnsavedConfirm } from './use-unsaved-confirm';
import type { LiveNotice } from './use-bell-counts';

/** The external help form of contact-us (VITE_CONTACT_US_URL at build time). */
export const CONTACT_US_URL: string = import.meta.env.VITE_CONTACT_US_URL || 'https://forms.gle/city-console-help';

export interface TopBarProps {
  city: string;
  collapsed: boolean;
  onToggle: () => void;
  links: readonly PageLink[];
  routes: readonly ResourceRoute[];
  onNotice?: (n: LiveNotice) => void;
}

/** The top bar's height, px: toasts open below it (console-app.tsx), never over its bell or user menu. */
export const TOP_BAR_HEIGHT = 56;

/** Memoized: a re-render of the layout (its tabs) leaves the top bar alone. */
export const TopBar = memo(function TopBar({ city, collapsed, onToggle, links, routes, onNotice }: TopBarProps) {
  const { t } = useTranslation();
  const { mutate: logout } = useLogout();
  // Signing out loses every open tab: unsaved input asks first.
  const confirmLoss = useUnsavedConfirm();
  const profile = useSessionValue('profile');
  const mobile = useIsMobile();
  const { token } = theme.useToken();
  const ability = useAbility<AppAbility>();
  const cityPath = `/${encodeURIComponent(city)}`;
  return (
    <Layout.Header style={{ position: 'sticky', top: 0, zIndex: 10, background: token.colorBgContainer, padding: '0 12px', borderBottom: `1px solid ${token.colorBorderSecondary}`, height: TOP_BAR_HEIGHT, lineHeight: `${TOP_BAR_HEIGHT}px` }}>
      <Flex justify="space-between" align="center" style={{ height: '100%' }} gap={8}>
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          {city !== MEMBER_CITY && (
            <Button type="text" icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={onToggle} aria-label={t('layout.toggleMenu')} aria-expanded={!collapsed} data-testid="sidebar-toggle" />
          )}
          {!mobile && <BreadcrumbTrail city={city} links={links} />}
        </Flex>
        <Flex align="center" gap={4} wrap={false} style={{ minWidth: 0 }}>
          <NotificationBell city={city} routes={routes} onNotice={onNotice} />
          {!mobile && <FullscreenButton />}
          <SizeSwitch />
          <ThemePicker />
          <LanguageSwitch />
          <Tooltip title={t('layout.home')}>
            <Link to={dashboardPath(city)} aria-label={t('layout.home')} data-testid="home-link">
              <Button type="text" icon={<HomeOutlined />} tabIndex={-1} aria-hidden />
            </Link>
          </Tooltip>
          {ability.can('read', 'feature:contact-us') && (
            <Tooltip title={t('shell.contactUs')}>
              <a href={CONTACT_US_URL} target="_blank" rel="noopener noreferrer" aria-label={t('shell.contactUs')} data-testid="contact-us">
                <Button type="text" icon={<CustomerServiceOutlined />} tabIndex={-1} aria-hidden />
              </a>
            </Tooltip>
          )}
          <Link to={`${cityPath}/profile`} title={t('layout.profile')} data-testid="profile-link" style={{ maxWidth: 160, display: 'inline-flex', minWidth: 0 }}>
            {/* CSS cuts the name: antd's Typography ellipsis measures the text after every render. */}
            <span data-testid="current-user" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              <UserOutlined /> {profile?.name || profile?.username}
            </span>
          </Link>
          <Button icon={<LogoutOutlined />} onClick={() => confirmLoss(() => logout())} aria-label={t('actions.logout')}>
            {!mobile && t('actions.logout')}
          </Button>
        </Flex>
      </Flex>
    </Layout.Header>
  );
});
