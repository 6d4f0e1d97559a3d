/**
 * Hand-written pages and menu icons a manifest may name (000 2.2; docs/architecture.md 'Console': hand-written pages only
 * for the dashboard, statistics, maps, chat and CSV import). `npm run check` rejects anything else.
 * The statistics page is open to every role: what a role may see there is the read
 * permission (and own-row limits) of the resource its menu entry's `statistic` counts
 * (src/shared/statistics.ts; e.g. menu/list-purchase is the Advertiser's, 000 2.2).
 */
import type { Role } from './roles';

/** Page name → roles allowed (empty: every signed-in role). */
export const PAGES: Record<string, Role[]> = {
  dashboard: [],
  users: ['Administrator', 'Operator'],
  statistics: [],
  maps: [],
  chat: ['Administrator', 'Operator', 'Teacher', 'Advertiser', 'President'],
  'csv-import': ['Administrator', 'Operator'],
  'csv-import-history': ['Administrator', 'Operator'],
  // Stored rows that fail their schema (docs/architecture.md 'Changing an entity'): the Administrator's.
  'data-check': ['Administrator'],
};

/**
 * Subjects that are not registry resources, served by hand-written routes, with the roles allowed
 * each action (000 6: the user pages are Administrator and Operator; everybody reads and updates
 * their own account; uploads by whoever may create content; a city's settings are changed by the
 * Administrator; the chat unread count is seen, and written by the chat service, for the roles that
 * have the chat entry, 000 6 Specifics 'chat list also Administrator'; the chat itself).
 */
export const HAND_WRITTEN_SUBJECTS: Record<string, Partial<Record<'read' | 'create' | 'update' | 'delete', Array<Role | '*'>>>> = {
  user: { read: ['Administrator', 'Operator'], create: ['Administrator', 'Operator'], update: ['Administrator', 'Operator'], delete: ['Administrator', 'Operator'] },
  account: { read: ['*'], update: ['*'] },
  file: { create: ['*'], read: ['*'] },
  city: { read: ['*'], update: ['Administrator'] },
  chat_unread: { read: ['Administrator', 'Operator'], update: ['Administrator', 'Operator'] },
  // Chat (src/server/chat/): the Operator's with its shops, the list also the Administrator's; an
  // Advertiser about its own shops; the Teacher's class chat, its history read by the President and
  // the Operator; deleting a message is the Operator's. Which conversation: src/server/chat/chat-access.ts.
  chat: {
    read: ['Administrator', 'Operator', 'Advertiser', 'Teacher', 'President'],
    create: ['Operator', 'Advertiser', 'Teacher'],
    delete: ['Operator'],
  },
  // Stored rows that fail their schema (src/server/data-check/; docs/architecture.md 'Changing an
  // entity'): the whole database's, so the Administrator's alone (no "Operator always passes" here).
  data_check: { read: ['Administrator'] },
};

/** Icon names a manifest entry may use; the console maps each to an @ant-design/icons component. */
export const MENU_ICONS = [
  'AccountBookOutlined',
  'ApartmentOutlined',
  'AppstoreOutlined',
  'AuditOutlined',
  'BankOutlined',
  'BarChartOutlined',
  'BellOutlined',
  'BookOutlined',
  'CalendarOutlined',
  'ClockCircleOutlined',
  'CommentOutlined',
  'CreditCardOutlined',
  'CrownOutlined',
  'CustomerServiceOutlined',
  'DashboardOutlined',
  'DeleteOutlined',
  'EnvironmentOutlined',
  'FieldTimeOutlined',
  'FileImageOutlined',
  'FilePdfOutlined',
  'FileTextOutlined',
  'FireOutlined',
  'GiftOutlined',
  'HeartOutlined',
  'HistoryOutlined',
  'IdcardOutlined',
  'ImportOutlined',
  'LockOutlined',
  'MessageOutlined',
  'NotificationOutlined',
  'QuestionCircleOutlined',
  'ReadOutlined',
  'SafetyCertificateOutlined',
  'ScheduleOutlined',
  'SettingOutlined',
  'ShopOutlined',
  'ShoppingCartOutlined',
  'SolutionOutlined',
  'SoundOutlined',
  'StarOutlined',
  'TagsOutlined',
  'TeamOutlined',
  'ThunderboltOutlined',
  'TrophyOutlined',
  'UserOutlined',
  'WarningOutlined',
] as const;
export type MenuIcon = (typeof MENU_ICONS)[number];
