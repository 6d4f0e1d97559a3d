/**
 * The bulk delete of a generated list (docs/architecture.md 'Beyond the spec': Bulk selection): shown when rows are selected and
 * the ability lets the user delete the resource; asks first, naming the count and the city's
 * Japanese name; deletes through the contract's delete call of each row (./bulk-delete); says how
 * many were deleted and, for those that were not, why; keeps the failed rows selected; reloads the list.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDataProvider, useInvalidate, type BaseKey } from '@refinedev/core';
import { App as AntdApp, Button } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { ERROR_TOAST_MS } from '@/shared/constants';
import type { DeleteAnswer } from '../providers/data-provider';
import { useCityName } from '../hooks/use-city-name';
import { deleteAll } from './bulk-delete';
import type { ResourceRoute } from './resource-routes';

export interface BulkDeleteButtonProps {
  route: ResourceRoute;
  city: string;
  ids: BaseKey[];
  /** Called with the ids still selected afterwards (the ones that failed). */
  onDone: (remaining: BaseKey[]) => void;
}

export function BulkDeleteButton({ route, city, ids, onDone }: BulkDeleteButtonProps) {
  const { t } = useTranslation();
  const { message, modal } = AntdApp.useApp();
  const cityName = useCityName(city);
  const dataProvider = useDataProvider();
  const invalidate = useInvalidate();
  const [busy, setBusy] = useState(false);

  const run = async () => {
    const ok = await modal.confirm({
      title: t('lists.bulk.delete'),
      content: t('lists.bulk.confirm', { city: cityName, resource: t(route.title), count: ids.length }),
      okText: t('actions.delete'),
      okButtonProps: { danger: true },
      cancelText: t('actions.cancel'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      const dp = dataProvider();
      const result = await deleteAll(
        ids,
        async (id) => (await dp.deleteOne({ resource: route.identifier, id, meta: { city } })).data as unknown as DeleteAnswer,
        t('errors.not_deleted'),
      );
      if (result.deleted.length) message.success({ content: t('lists.bulk.done', { count: result.deleted.length }), key: 'bulk-deleted' });
      if (result.failed.length) {
        const reasons = [...new Set(result.failed.map((f) => f.reason))].join(' / ');
        message.error({ content: t('lists.bulk.failed', { failed: result.failed.length, reasons }), duration: ERROR_TOAST_MS / 1000, key: 'bulk-failed' });
      }
      onDone(result.failed.map((f) => f.id));
      await invalidate({ resource: route.identifier, invalidates: ['list'] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button danger icon={<DeleteOutlined />} loading={busy} onClick={() => void run()} data-testid="bulk-delete">
      {t('lists.bulk.delete')}（{ids.length}）
    </Button>
  );
}
