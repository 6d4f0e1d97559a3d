/**
 * The buttons of one record: its `set`/`toggle` actions (001 7: approve, mark read, pin…; a toggle
 * is highlighted while its field is true; each asks for confirmation), then show, edit, 複製 (000 4
 * modal mode douplicate: the create form filled from this record, where the schema declares
 * `x-resource.clone`; needs `create`) and delete, each shown only when the session's ability allows
 * it (000 6; no network call). Delete asks for confirmation first (000 5 delete confirmations). 000 4
 * local list updates: resources with `optimisticDelete` lose the row at once and get it back if the
 * server refuses (Refine's optimistic mode); a delete the server answers with 209 keeps the row and
 * shows the server's message. The calls are the page's (./record-commands).
 *
 * What a page offers is decided once per page (`useRecordActionSet`: abilities, labels, navigation),
 * not once per row: a list's twenty rows only render buttons (docs/performance.md).
 */
import { memo, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BaseKey, BaseRecord } from '@refinedev/core';
import { useAbility } from '@casl/react';
import { Button, Popconfirm, Space } from 'antd';
import { CopyOutlined, DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { AppAbility } from '@/shared/ability';
import type { ActionDef } from '@/shared/registry';
import { getResource } from '@/shared/registry';
import { actionLabel, canClone, rowActions } from './record-action-defs';
import type { RecordCommands } from './record-commands';
import type { ResourceRoute } from './resource-routes';
import { cityPath } from './city-path';
import { MountOnDemand } from '../components/mount-on-demand';

/** One `set`/`toggle` action as a row offers it: the action, its label and its confirmation. */
interface OfferedAction {
  action: ActionDef;
  label: string;
  confirm: string;
}

/** What a page offers on each of its records (see `useRecordActionSet`). */
export interface RecordActionSet {
  actions: OfferedAction[];
  /** Labels of the buttons and of the confirmations (the session's language). */
  labels: { show: string; edit: string; clone: string; delete: string; confirmDelete: string; run: string; cancel: string };
  show: boolean;
  edit: boolean;
  clone: boolean;
  delete: boolean;
  /** Opens the record's show, edit or 複製 page. */
  open: (page: 'show' | 'edit' | 'clone', id: BaseKey) => void;
  commands: RecordCommands;
}

/**
 * The buttons a page offers on the records of `route` in `city`, decided once: the ability's
 * answers, the translated labels and the navigation. `show: false` leaves out 'show' (the detail
 * page itself). Recomputed only when the language, the ability, the commands' state or the route change.
 */
export function useRecordActionSet(route: ResourceRoute, city: string, commands: RecordCommands, { show = true }: { show?: boolean } = {}): RecordActionSet {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility<AppAbility>();
  return useMemo(() => {
    const def = getResource(route.resource);
    const can = (a: Parameters<AppAbility['can']>[0], s: string) => ability.can(a, s);
    return {
      actions: rowActions(def, can).map((action) => {
        const label = actionLabel(action.name, t);
        return { action, label, confirm: t('actions.confirmAction', { action: label }) };
      }),
      labels: {
        show: t('actions.show'),
        edit: t('actions.edit'),
        clone: t('actions.clone'),
        delete: t('actions.delete'),
        confirmDelete: t('actions.confirmDelete'),
        run: t('actions.run'),
        cancel: t('actions.cancel'),
      },
      show: show && !!def.api.show && can('read', route.resource),
      edit: !!def.api.update && can('update', route.resource),
      clone: canClone(def, can),
      delete: !!def.api.delete && can('delete', route.resource),
      open: (page, id) => navigate(cityPath(city, route[page], id)),
      commands,
    };
  }, [route, city, commands, show, t, navigate, ability]);
}

export interface RecordActionsProps {
  /** What the page offers (`useRecordActionSet`). */
  set: RecordActionSet;
  id: BaseKey;
  /** The row, for toggle buttons that show their state. */
  record?: BaseRecord;
  /** Called after a successful delete (e.g. leave the detail page). */
  onDeleted?: () => void;
}

/** The buttons of one record, as `set` offers them (no hooks: cheap for every row of a list). */
export const RecordActions = memo(function RecordActions({ set, id, record, onDeleted }: RecordActionsProps) {
  const { labels, commands } = set;
  const confirmDelete = async () => {
    if (await commands.remove(id)) onDeleted?.();
  };
  return (
    <Space size="small" wrap>
      {set.actions.map(({ action, label, confirm }) => (
        <MountOnDemand
          key={action.name}
          on="click"
          wrap={(child) => (
            <Popconfirm defaultOpen title={confirm} okText={labels.run} cancelText={labels.cancel} okButtonProps={{ loading: commands.running }} onConfirm={() => commands.run(action, id)}>
              {child}
            </Popconfirm>
          )}
        >
          <Button size="small" type={action.kind === 'toggle' && action.field && record?.[action.field] === true ? 'primary' : 'default'} data-action={action.name}>
            {label}
          </Button>
        </MountOnDemand>
      ))}
      {set.show && (
        <Button size="small" icon={<EyeOutlined />} onClick={() => set.open('show', id)}>
          {labels.show}
        </Button>
      )}
      {set.edit && (
        <Button size="small" icon={<EditOutlined />} onClick={() => set.open('edit', id)}>
          {labels.edit}
        </Button>
      )}
      {set.clone && (
        <Button size="small" icon={<CopyOutlined />} data-action="clone" onClick={() => set.open('clone', id)}>
          {labels.clone}
        </Button>
      )}
      {set.delete && (
        <MountOnDemand
          on="click"
          wrap={(child) => (
            <Popconfirm defaultOpen title={labels.confirmDelete} okText={labels.delete} cancelText={labels.cancel} okButtonProps={{ danger: true, loading: commands.removing }} onConfirm={confirmDelete}>
              {child}
            </Popconfirm>
          )}
        >
          <Button size="small" danger icon={<DeleteOutlined />}>
            {labels.delete}
          </Button>
        </MountOnDemand>
      )}
    </Space>
  );
});
