/**
 * Hand-written pages and menu icons a manifest may name (000 2.2; DESIGN.md: hand-written pages only
 * for the dashboard, statistics, maps, chat and CSV import). `npm run check` rejects anything else.
 */
import type { Role } from './roles';

/** Page name → roles allowed (empty: every signed-in role). */
export const PAGES: Record<string, Role[]> = {
  dashboard: [],
};

/** Icon names a manifest entry may use; the console maps each to an @ant-design/icons component. */
export const MENU_ICONS = [
  'DashboardOutlined',
  'ReadOutlined',
  'CalendarOutlined',
  'AppstoreOutlined',
  'NotificationOutlined',
  'ShopOutlined',
  'TagsOutlined',
  'TeamOutlined',
  'UserOutlined',
  'SettingOutlined',
  'FileTextOutlined',
  'BarChartOutlined',
] as const;
export type MenuIcon = (typeof MENU_ICONS)[number];
