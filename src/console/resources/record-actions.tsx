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
 *
 * An action is offered only on a row it applies to (./record-action-defs `actionApplies`: its
 * declared `when` states; a `set` only where it would change the row). A list row (`RowActions`)
 * shows its main action as a link (編集 where the role may edit, else 詳細) and the others in one
 * overflow menu, made when first opened, each item with its icon, reachable by keyboard (arrow keys,
 * Enter), destructive ones last and red, each confirmed in a dialog.
 */
import { memo, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BaseKey, BaseRecord } from '@refinedev/core';
import { useAbility } from '@casl/react';
import { App as AntdApp, Button, Dropdown, Popconfirm, Space, type MenuProps } from 'antd';
import { BorderOutlined, CheckOutlined, CheckSquareOutlined, CopyOutlined, DeleteOutlined, EditOutlined, EllipsisOutlined, EyeOutlined, MailOutlined } from '@ant-design/icons';
import type { AppAbility } from '@/shared/ability';
import type { ActionDef } from '@/shared/registry';
import { getResource } from '@/shared/registry';
import { actionApplies, actionLabel, canClone, rowActions } from './record-action-defs';
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
  /** The resource's definition (`actionApplies` reads its defaults). */
  def: ReturnType<typeof getResource>;
  actions: OfferedAction[];
  /** Labels of the buttons and of the confirmations (the session's language). */
  labels: { show: string; edit: string; clone: string; delete: string; confirmDelete: string; run: string; cancel: string; more: string };
  show: boolean;
  edit: boolean;
  clone: boolean;
  delete: boolean;
  /** Opens the record's show, edit or 複製 page. */
  open: (page: 'show' | 'edit' | 'clone', id: BaseKey) => void;
  /** The address of the record's show, edit or 複製 page. */
  href: (page: 'show' | 'edit' | 'clone', id: BaseKey) => string;
  /** Asks for a confirmation in a dialog, then runs `onOk` (the dialog waits for it). */
  confirm: (title: string, okText: string, danger: boolean, onOk: () => Promise<unknown> | void) => void;
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
  const { modal } = AntdApp.useApp();
  return useMemo(() => {
    const def = getResource(route.resource);
    const can = (a: Parameters<AppAbility['can']>[0], s: string, field?: string) => ability.can(a, s, field);
    return {
      def,
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
        more: t('lists.rows.more'),
      },
      show: show && !!def.api.show && can('read', route.resource),
      edit: !!def.api.update && can('update', route.resource),
      clone: canClone(def, can),
      delete: !!def.api.delete && can('delete', route.resource),
      open: (page, id) => navigate(cityPath(city, route[page], id)),
      href: (page, id) => cityPath(city, route[page], id),
      confirm: (title, okText, danger, onOk) => {
        modal.confirm({ title, okText, cancelText: t('actions.cancel'), okButtonProps: { danger }, onOk: () => onOk() });
      },
      commands,
    };
  }, [route, city, commands, show, t, navigate, ability, modal]);
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
      {set.actions.filter(({ action }) => actionApplies(set.def, action, record)).map(({ action, label, confirm }) => (
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

function actionIcon(action: ActionDef, record: BaseRecord | undefined): ReactNode {
  if (action.kind === 'toggle') return action.field && record?.[action.field] === true ? <CheckSquareOutlined /> : <BorderOutlined />;
  if (action.kind === 'mail-qr') return <MailOutlined />;
  return <CheckOutlined />;
}

/**
 * The menu of a row's other actions, built when the menu opens: the row's applicable actions, then
 * 詳細 (when the main link is 編集), 複製, and 削除 last, red. Pure apart from the callbacks it binds.
 */
export function rowMenuItems(set: RecordActionSet, id: BaseKey, record: BaseRecord | undefined, main: 'show' | 'edit' | null): NonNullable<MenuProps['items']> {
  const { labels, commands } = set;
  const items: NonNullable<MenuProps['items']> = set.actions
    .filter(({ action }) => actionApplies(set.def, action, record))
    .map(({ action, label, confirm }) => ({
      key: `action:${action.name}`,
      icon: actionIcon(action, record),
      label: <span data-action={action.name}>{label}</span>,
      onClick: () => set.confirm(confirm, labels.run, false, () => commands.run(action, id)),
    }));
  if (set.show && main !== 'show') items.push({ key: 'show', icon: <EyeOutlined />, label: labels.show, onClick: () => set.open('show', id) });
  if (set.edit && main !== 'edit') items.push({ key: 'edit', icon: <EditOutlined />, label: labels.edit, onClick: () => set.open('edit', id) });
  if (set.clone) items.push({ key: 'clone', icon: <CopyOutlined />, label: <span data-action="clone">{labels.clone}</span>, onClick: () => set.open('clone', id) });
  if (set.delete) {
    if (items.length > 0) items.push({ type: 'divider' });
    // An optimistic delete (000 4: flyers, documents) closes the dialog at once: the row is gone already.
    const remove = () => {
      const done = commands.remove(id);
      return set.def.optimisticDelete ? undefined : done;
    };
    items.push({ key: 'delete', icon: <DeleteOutlined />, danger: true, label: labels.delete, onClick: () => set.confirm(labels.confirmDelete, labels.delete, true, remove) });
  }
  return items;
}

/** Whether a row of `set` has anything for its overflow menu (without building it). */
function hasMore(set: RecordActionSet, record: BaseRecord | undefined, main: 'show' | 'edit' | null): boolean {
  return set.delete || set.clone || (set.show && main !== 'show') || set.actions.some(({ action }) => actionApplies(set.def, action, record));
}

/** The overflow menu, mounted open on the first click of its button; its items are made when it opens. */
function RowMenu({ items, children }: { items: () => NonNullable<MenuProps['items']>; children: ReactElement }) {
  const [open, setOpen] = useState(true);
  return (
    <Dropdown open={open} onOpenChange={setOpen} autoFocus trigger={['click']} placement="bottomRight" menu={{ items: items(), onClick: () => setOpen(false) }}>
      {children}
    </Dropdown>
  );
}

/**
 * A list row's actions (see the top of this file): the main link and one overflow button whose menu
 * is mounted on its first click (../components/mount-on-demand), so twenty rows cost twenty links and
 * twenty buttons. No hooks.
 */
export const RowActions = memo(function RowActions({ set, id, record }: { set: RecordActionSet; id: BaseKey; record?: BaseRecord }) {
  const main = set.edit ? 'edit' : set.show ? 'show' : null;
  return (
    <Space size={4} className="row-actions">
      {main && (
        <Link to={set.href(main, id)} className="row-main-action">
          {main === 'edit' ? <EditOutlined /> : <EyeOutlined />} {main === 'edit' ? set.labels.edit : set.labels.show}
        </Link>
      )}
      {hasMore(set, record, main) && (
        <MountOnDemand
          on="click"
          wrap={(child) => (
            <RowMenu items={() => rowMenuItems(set, id, record, main)}>{child}</RowMenu>
          )}
        >
          <Button size="small" type="text" icon={<EllipsisOutlined />} aria-label={`${set.labels.more} #${String(id)}`} aria-haspopup="menu" data-row-more="" />
        </MountOnDemand>
      )}
    </Space>
  );
});
