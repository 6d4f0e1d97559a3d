/**
 * The notification bell of the top bar (000 2.3): the sum of the counts of use-bell-counts.ts on the
 * bell, which links to /{city}/notification-admin; its dropdown has one line per kind (admin notices,
 * menu reports, review reports, matching reports), each linking to its list and resetting its count
 * on click. A live admin notice (Operator) also shows a notification toast.
 */
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { App as AntdApp, Badge, Button, Dropdown, Space, type MenuProps } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import type { ResourceRoute } from '../resources/resource-routes';
import { useBellCounts, type BellKind, type LiveNotice } from './use-bell-counts';
import { VisuallyHidden } from './visually-hidden';
import { badgeText } from './menu-paths';

const RESOURCE_OF: Record<BellKind, string> = { notice: 'notify_operator', dish: 'dish_report', review: 'dish_report', matching: 'matching_report' };

export function NotificationBell({ city, routes, onNotice }: { city: string; routes: readonly ResourceRoute[]; onNotice?: (n: LiveNotice) => void }) {
  const { t } = useTranslation();
  const { notification } = AntdApp.useApp();
  const navigate = useNavigate();
  const cityPath = `/${encodeURIComponent(city)}`;
  const { kinds, counts, total, reset } = useBellCounts(city, (n) => {
    notification.info({ message: t('shell.bell.liveNotice'), description: n.title, placement: 'topRight' });
    onNotice?.(n);
  });

  const items = useMemo<MenuProps['items']>(
    () =>
      kinds.map((kind) => {
        const route = kind === 'notice' ? 'notification-admin' : routes.find((r) => r.resource === RESOURCE_OF[kind])?.list;
        return {
          key: kind,
          label: (
            <Space style={{ justifyContent: 'space-between', width: '100%', minWidth: 200 }} data-testid={`bell-line-${kind}`}>
              <span>{t(`shell.bell.${kind}`)}</span>
              <Badge count={counts[kind]} showZero overflowCount={999} color={counts[kind] ? undefined : '#bfbfbf'} />
            </Space>
          ),
          onClick: () => {
            void reset(kind);
            if (route) navigate(`${cityPath}/${route}`);
          },
        };
      }),
    [kinds, counts, routes, t, reset, navigate, cityPath],
  );

  return (
    <Dropdown menu={{ items }} trigger={['hover', 'click']} placement="bottomRight">
      {/* The name begins with what is shown, the badge's number (WCAG 2.5.3), then the bell in words; the
          badge itself is hidden from the name (its digits would be read one by one). */}
      <Link to={`${cityPath}/notification-admin`} data-testid="notification-bell">
        <span aria-hidden>
          <Badge count={total} overflowCount={99} size="small" data-testid="bell-count">
            <Button type="text" icon={<BellOutlined />} tabIndex={-1} aria-hidden />
          </Badge>
        </span>
        <VisuallyHidden>{`${badgeText(total) ?? ''} ${t('shell.bell.title', { count: total })}`}</VisuallyHidden>
      </Link>
    </Dropdown>
  );
}
