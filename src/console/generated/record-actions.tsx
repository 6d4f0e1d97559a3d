/**
 * Show, edit and delete buttons of one record, each shown only when the session's ability allows it
 * (000 6; no network call). Delete asks for confirmation first (000 5 delete confirmations).
 */
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useDelete, type BaseKey } from '@refinedev/core';
import { useAbility } from '@casl/react';
import { App as AntdApp, Button, Popconfirm, Space } from 'antd';
import { DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { AppAbility } from '@/shared/ability';
import { errorNotification } from '../providers/error-notification';
import type { ResourceRoute } from './resource-routes';
import { cityPath } from './city-path';

export interface RecordActionsProps {
  route: ResourceRoute;
  city: string;
  id: BaseKey;
  /** Which buttons to offer (the show page has no 'show'). */
  show?: boolean;
  /** Called after a successful delete (e.g. leave the detail page). */
  onDeleted?: () => void;
}

export function RecordActions({ route, city, id, show = true, onDeleted }: RecordActionsProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility<AppAbility>();
  const { message } = AntdApp.useApp();
  const { mutateAsync: remove, mutation } = useDelete();

  const confirmDelete = async () => {
    try {
      await remove({ resource: route.identifier, id, meta: { city }, successNotification: false, errorNotification });
      message.success({ content: t('messages.deleted'), key: 'deleted' });
      onDeleted?.();
    } catch {
      // the error notification has been shown
    }
  };

  return (
    <Space size="small">
      {show && ability.can('read', route.resource) && (
        <Button size="small" icon={<EyeOutlined />} onClick={() => navigate(cityPath(city, route.show, id))}>
          {t('actions.show')}
        </Button>
      )}
      {ability.can('update', route.resource) && (
        <Button size="small" icon={<EditOutlined />} onClick={() => navigate(cityPath(city, route.edit, id))}>
          {t('actions.edit')}
        </Button>
      )}
      {ability.can('delete', route.resource) && (
        <Popconfirm
          title={t('actions.confirmDelete')}
          okText={t('actions.delete')}
          cancelText={t('actions.cancel')}
          okButtonProps={{ danger: true, loading: mutation.isPending }}
          onConfirm={confirmDelete}
        >
          <Button size="small" danger icon={<DeleteOutlined />}>
            {t('actions.delete')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
