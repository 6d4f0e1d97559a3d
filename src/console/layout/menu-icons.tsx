/**
 * The @ant-design/icons component of each icon name a manifest may use (src/shared/pages.ts
 * MENU_ICONS). Typed as a complete map, so a new name there must get its icon here.
 */
import type { ComponentType } from 'react';
import {
  AppstoreOutlined,
  BarChartOutlined,
  CalendarOutlined,
  DashboardOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  NotificationOutlined,
  ReadOutlined,
  SettingOutlined,
  ShopOutlined,
  TagsOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { MenuIcon } from '@/shared/pages';

export const MENU_ICON_COMPONENTS: Record<MenuIcon, ComponentType> = {
  DashboardOutlined,
  ReadOutlined,
  CalendarOutlined,
  AppstoreOutlined,
  NotificationOutlined,
  ShopOutlined,
  TagsOutlined,
  TeamOutlined,
  UserOutlined,
  SettingOutlined,
  FileTextOutlined,
  BarChartOutlined,
};

/** The icon of a menu entry; the city entry uses EnvironmentOutlined; unknown names render nothing. */
export function MenuIconOf({ name }: { name: string }) {
  const Icon = name === 'city' ? EnvironmentOutlined : MENU_ICON_COMPONENTS[name as MenuIcon];
  return Icon ? <Icon /> : null;
}
