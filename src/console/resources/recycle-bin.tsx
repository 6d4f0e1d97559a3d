/**
 * The ごみ箱 (recycle bin) of a resource's list (docs/architecture.md 'Revisions and the recycle bin'),
 * at `/:city/<route>/trash`, for roles that may bring rows back (read and create, as the server
 * checks): the deleted rows of the city, newest delete first, 20 a page, with the list's default
 * columns as the list shows them (fields the user may not read left out, ./field-access.ts), when and
 * by whom each was deleted, and 元に戻す, which brings the row back (the server's undelete, a new
 * revision): it leaves the bin and is in the list again. A refusal (409: a unique value taken since;
 * 400: a value the schema refuses now; 403) is shown as the server says it.
 */
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useInvalidate } from '@refinedev/core';
import { App as AntdApp, Button, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { RollbackOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { REVISION_PAGE, type DeletedRow } from '@/shared/revisions';
import { cityPath } from './city-path';
import { defaultColumns } from './column-chooser';
import { useFieldAccess } from './field-access';
import { FieldValue } from './field-value';
import { formatDateValue } from './format-value';
import { PageCard } from './page-card';
import type { ResourceRoute } from './resource-routes';
import { authorName, failure } from './revision-history';
import { fetchDeleted, undeleteRow } from './revisions-api';

export function RecycleBin({ route }: { route: ResourceRoute }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { city = '' } = useParams();
  const { message } = AntdApp.useApp();
  const invalidate = useInvalidate();
  const queryClient = useQueryClient();
  const { def } = useFieldAccess(route.resource);
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState<number | null>(null);
  const key = ['recycle-bin', city, def.name];
  const { data, isFetching, error } = useQuery({ queryKey: [...key, page], queryFn: () => fetchDeleted(city, def.name, page), placeholderData: keepPreviousData });

  const undelete = async (row: DeletedRow) => {
    setBusy(row.id);
    try {
      await undeleteRow(city, def.name, row.id);
      message.success({ content: t('history.bin.restored'), key: 'undeleted' });
    } catch (e) {
      message.error({ content: failure(e), key: 'undeleted' });
    } finally {
      setBusy(null);
    }
    await Promise.all([queryClient.invalidateQueries({ queryKey: key }), invalidate({ resource: route.identifier, invalidates: ['list'] })]);
  };

  const columns: ColumnsType<DeletedRow> = [
    ...defaultColumns(def).map((field) => ({
      key: field,
      title: t(def.schema.properties[field].title),
      render: (_: unknown, row: DeletedRow) => <FieldValue prop={def.schema.properties[field]} value={row.record[field]} size={48} resolveRefs city={city} />,
    })),
    {
      key: '__deleted_at',
      title: t('history.bin.deletedAt'),
      render: (_, row) => <time dateTime={row.deleted_at}>{formatDateValue('date-time', row.deleted_at, 'list') ?? row.deleted_at}</time>,
    },
    { key: '__deleted_by', title: t('history.bin.deletedBy'), render: (_, row) => authorName(row.deleted_by, t) },
    {
      key: '__actions',
      title: t('actions.actions'),
      fixed: 'right',
      render: (_, row) => (
        <Button size="small" icon={<RollbackOutlined />} loading={busy === row.id} onClick={() => void undelete(row)} aria-label={t('history.bin.restoreRow', { id: row.id })}>
          {t('history.bin.restore')}
        </Button>
      ),
    },
  ];

  return (
    <PageCard
      title={t('history.bin.title', { resource: t(route.title) })}
      extra={
        <Button icon={<UnorderedListOutlined />} onClick={() => navigate(cityPath(city, route.list))}>
          {t('actions.list')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('history.bin.hint')}</Typography.Paragraph>
      {error ? (
        <Typography.Text type="danger">{failure(error)}</Typography.Text>
      ) : (
        <Table<DeletedRow>
          data-testid="recycle-bin"
          rowKey="id"
          size="middle"
          loading={isFetching}
          dataSource={data?.content ?? []}
          columns={columns}
          scroll={{ x: true }}
          locale={{ emptyText: t('history.bin.empty') }}
          pagination={{ current: page, pageSize: REVISION_PAGE, total: data?.total_length ?? 0, showSizeChanger: false, onChange: setPage }}
        />
      )}
    </PageCard>
  );
}
