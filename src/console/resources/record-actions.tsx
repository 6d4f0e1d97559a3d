/**
 * Show, edit, 複製 (000 4 modal mode douplicate: the create form filled from this record, where the
 * schema declares `x-resource.clone`; needs `create`) and delete buttons of one record and its
 * `set`/`toggle` actions, each shown only when the session's ability allows it (000 6; no network
 * call). Delete asks for confirmation first (000 5 delete confirmations). 000 4 local list updates: resources with `optimisticDelete` lose the row at
 * once and get it back if the server refuses (Refine's optimistic mode); a delete the server answers
 * with 209 keeps the row and shows the server's message. The calls are the page's (./record-commands).
 */
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BaseKey, BaseRecord } from '@refinedev/core';
import { useAbility } from '@casl/react';
import { Button, Popconfirm, Space } from 'antd';
import { CopyOutlined, DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { AppAbility } from '@/shared/ability';
import { getResource } from '@/shared/registry';
import { canClone } from './record-action-defs';
import { RowActionButtons } from './row-action-buttons';
import type { RecordCommands } from './record-commands';
import type { ResourceRoute } from './resource-routes';
import { cityPath } from './city-path';

export interface RecordActionsProps {
  route: ResourceRoute;
  city: string;
  id: BaseKey;
  /** The page's delete and action calls (./record-commands). */
  commands: RecordCommands;
  /** Which buttons to offer (the show page has no 'show'). */
  show?: boolean;
  /** Called after a successful delete (e.g. leave the detail page). */
  onDeleted?: () => void;
  /** The row, for toggle buttons that show their state. */
  record?: BaseRecord;
}

export function RecordActions({ route, city, id, commands, show = true, onDeleted, record }: RecordActionsProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility<AppAbility>();
  const def = getResource(route.resource);

  const confirmDelete = async () => {
    if (await commands.remove(id)) onDeleted?.();
  };

  return (
    <Space size="small" wrap>
      <RowActionButtons def={def} id={id} record={record} commands={commands} />
      {show && !!def.api.show && ability.can('read', route.resource) && (
        <Button size="small" icon={<EyeOutlined />} onClick={() => navigate(cityPath(city, route.show, id))}>
          {t('actions.show')}
        </Button>
      )}
      {!!def.api.update && ability.can('update', route.resource) && (
        <Button size="small" icon={<EditOutlined />} onClick={() => navigate(cityPath(city, route.edit, id))}>
          {t('actions.edit')}
        </Button>
      )}
      {canClone(def, (a, s) => ability.can(a, s)) && (
        <Button size="small" icon={<CopyOutlined />} data-action="clone" onClick={() => navigate(cityPath(city, route.clone, id))}>
          {t('actions.clone')}
        </Button>
      )}
      {!!def.api.delete && ability.can('delete', route.resource) && (
        <Popconfirm
          title={t('actions.confirmDelete')}
          okText={t('actions.delete')}
          cancelText={t('actions.cancel')}
          okButtonProps={{ danger: true, loading: commands.removing }}
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
