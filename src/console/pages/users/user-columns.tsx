/**
 * The columns of the users table (001 7.2 Profile): username, name, e-mail, permission (translated;
 * キャプテン for a captain), the user's cities, and edit and delete (with a confirmation) where the
 * ability allows; for an Administrator, ending a user's sessions and resetting its second factor.
 */
import type { TFunction } from 'i18next';
import { Button, Popconfirm, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { UserRow } from './user-api';

export interface UserColumnOptions {
  t: TFunction;
  canUpdate: boolean;
  canDelete: boolean;
  onEdit: (user: UserRow) => void;
  onDelete: (user: UserRow) => Promise<unknown>;
  /** An Administrator's sign-in actions (docs/architecture.md 'Staff sign-in'): end every session, reset the second factor. */
  security?: { onEndSessions: (user: UserRow) => Promise<unknown>; onResetMfa: (user: UserRow) => Promise<unknown> };
}

export function userColumns({ t, canUpdate, canDelete, onEdit, onDelete, security }: UserColumnOptions): ColumnsType<UserRow> {
  const columns: ColumnsType<UserRow> = [
    { key: 'id', dataIndex: 'id', title: t('fields.id'), width: 80 },
    { key: 'username', dataIndex: 'username', title: t('users.page.username') },
    { key: 'name', dataIndex: 'name', title: t('users.page.name') },
    { key: 'email', dataIndex: 'email', title: t('users.page.email'), ellipsis: true },
    {
      key: 'permission',
      dataIndex: 'permission',
      title: t('users.page.permission'),
      render: (permission: string, user) => (
        <Space size={4} wrap>
          <Tag>{t(`users.roles.${permission}`, { defaultValue: permission })}</Tag>
          {user.is_captain_department && <Tag color="gold">{t('users.page.captain')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'assign_city',
      dataIndex: 'assign_city',
      title: t('users.page.cities'),
      render: (cities: UserRow['assign_city']) => (cities ?? []).map((c) => c.name_ja || c.name).join('、'),
    },
  ];
  if (canUpdate || canDelete || security) {
    columns.push({
      key: '__actions',
      title: t('actions.actions'),
      render: (_: unknown, user) => (
        <Space size={4}>
          {canUpdate && (
            <Button size="small" icon={<EditOutlined />} onClick={() => onEdit(user)} aria-label={`${t('actions.edit')} ${user.username}`}>
              {t('actions.edit')}
            </Button>
          )}
          {canDelete && (
            <Popconfirm
              title={t('users.page.confirmDelete', { username: user.username })}
              okText={t('actions.yes')}
              cancelText={t('actions.no')}
              onConfirm={() => onDelete(user)}
            >
              <Button size="small" danger icon={<DeleteOutlined />} aria-label={`${t('actions.delete')} ${user.username}`}>
                {t('actions.delete')}
              </Button>
            </Popconfirm>
          )}
          {security && (
            <Popconfirm title={t('security.admin.endSessionsConfirm')} okText={t('actions.yes')} cancelText={t('actions.no')} onConfirm={() => security.onEndSessions(user)}>
              <Button size="small" aria-label={`${t('security.admin.endSessions')} ${user.username}`}>
                {t('security.admin.endSessions')}
              </Button>
            </Popconfirm>
          )}
          {security && (
            <Popconfirm title={t('security.admin.resetMfaConfirm')} okText={t('actions.yes')} cancelText={t('actions.no')} onConfirm={() => security.onResetMfa(user)}>
              <Button size="small" aria-label={`${t('security.admin.resetMfa')} ${user.username}`}>
                {t('security.admin.resetMfa')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    });
  }
  return columns;
}
