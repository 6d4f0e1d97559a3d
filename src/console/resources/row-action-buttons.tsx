/**
 * The `set` and `toggle` actions of one record as buttons (001 7: approve, mark read, pin…), each
 * asking for confirmation, shown only when the ability allows the action's permission. A toggle
 * button is highlighted while its field is true. The calls come from the page's ./record-commands.
 */
import { useTranslation } from 'react-i18next';
import type { BaseKey, BaseRecord } from '@refinedev/core';
import { useAbility } from '@casl/react';
import { Button, Popconfirm } from 'antd';
import type { AppAbility } from '@/shared/ability';
import type { ResourceDef } from '@/shared/registry';
import { actionLabel, rowActions } from './record-action-defs';
import type { RecordCommands } from './record-commands';

export function RowActionButtons({ def, id, record, commands }: { def: ResourceDef; id: BaseKey; record?: BaseRecord; commands: RecordCommands }) {
  const { t } = useTranslation();
  const ability = useAbility<AppAbility>();
  return (
    <>
      {rowActions(def, (a, s) => ability.can(a, s)).map((a) => {
        const label = actionLabel(a.name, t);
        const on = a.kind === 'toggle' && a.field ? record?.[a.field] === true : false;
        return (
          <Popconfirm
            key={a.name}
            title={t('actions.confirmAction', { action: label })}
            okText={t('actions.run')}
            cancelText={t('actions.cancel')}
            okButtonProps={{ loading: commands.running }}
            onConfirm={() => commands.run(a, id)}
          >
            <Button size="small" type={on ? 'primary' : 'default'} data-action={a.name}>
              {label}
            </Button>
          </Popconfirm>
        );
      })}
    </>
  );
}
