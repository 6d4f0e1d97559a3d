/**
 * The generated list page of any resource (DESIGN.md 'Console'): an antd Table through
 * @refinedev/antd `useTable`; columns from the schema's `list.columns` (less `x-hidden-in-list`
 * fields) with translated titles, values as ./field-value shows them (enum labels, dates as
 * YYYY/MM/DD HH:mm, numbers with separators, image thumbnails, PDF links); a search box (when the
 * schema declares search fields) that returns to page 1 (000 4); sorting on the declared sort
 * fields; page size from the schema (001 9: 20); create/show/edit/delete, the `set`/`toggle`
 * actions and the CSV export only where the ability allows.
 */
import { useMemo } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAbility } from '@casl/react';
import type { BaseRecord, CrudFilter } from '@refinedev/core';
import { getDefaultSortOrder, useTable } from '@refinedev/antd';
import { Button, Flex, Input, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import type { AppAbility } from '@/shared/ability';
import { getResource } from '@/shared/registry';
import { errorNotification } from '../providers/error-notification';
import { useIsMobile } from '../hooks/use-is-mobile';
import { SEARCH_FIELDS } from '../providers/data-provider';
import { cityPath } from './city-path';
import { ExportButton } from './export-button';
import { FieldValue } from './field-value';
import { listActions } from './record-action-defs';
import { RecordActions } from './record-actions';
import { useRecordCommands } from './record-commands';
import type { ResourceRoute } from './resource-routes';
import { PageCard } from './page-card';

function searchValue(filters: CrudFilter[]): string {
  const f = filters.find((x) => 'field' in x && SEARCH_FIELDS.includes(x.field));
  return f ? String(f.value ?? '') : '';
}

export function ResourceList({ route }: { route: ResourceRoute }) {
  const def = getResource(route.resource);
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { city = '' } = useParams();
  const ability = useAbility<AppAbility>();
  const mobile = useIsMobile();
  const commands = useRecordCommands(route, city);

  const { tableProps, sorters, filters, setFilters, setCurrentPage } = useTable<BaseRecord>({
    resource: route.identifier,
    pagination: { pageSize: def.list.pageSize },
    sorters: { initial: [{ field: def.list.defaultSort.field, order: def.list.defaultSort.order }] },
    meta: { city },
    syncWithLocation: true,
    errorNotification,
  });

  const columns = useMemo<ColumnsType<BaseRecord>>(() => {
    const shown = def.list.columns.filter((f) => !def.schema.properties[f]?.['x-hidden-in-list']);
    const cols: ColumnsType<BaseRecord> = (shown.length ? shown : def.list.columns).map((field) => {
      const prop = def.schema.properties[field];
      const sortable = def.list.sort.includes(field);
      return {
        key: field,
        dataIndex: field,
        title: t(prop.title),
        sorter: sortable,
        sortOrder: sortable ? (getDefaultSortOrder(field, sorters) ?? null) : undefined,
        ellipsis: prop.type === 'string' && !prop.enum && !prop.format && !prop['x-upload'] && prop['x-widget'] !== 'image-url',
        render: (value: unknown) => <FieldValue prop={prop} value={value} />,
      };
    });
    cols.push({
      key: '__actions',
      title: t('actions.actions'),
      fixed: mobile ? undefined : 'right',
      render: (_: unknown, record: BaseRecord) => <RecordActions route={route} city={city} id={record.id!} record={record} commands={commands} />,
    });
    return cols;
  }, [def, sorters, t, route, city, mobile, commands]);
  const exports = listActions(def, (a, s) => ability.can(a, s));

  const onSearch = (value: string) => {
    const rest = filters.filter((f) => !('field' in f) || !SEARCH_FIELDS.includes(f.field));
    setFilters(value.trim() ? [...rest, { field: 'search', operator: 'contains', value: value.trim() }] : rest, 'replace');
    setCurrentPage(1);
  };

  return (
    <PageCard
      title={t(route.title)}
      extra={
        <Flex gap={12} wrap align="center">
          {def.list.search.length > 0 && (
            <Input.Search
              key={searchValue(filters)}
              defaultValue={searchValue(filters)}
              placeholder={t('actions.search')}
              aria-label={t('actions.search')}
              allowClear
              enterButton={t('actions.search')}
              onSearch={onSearch}
              style={{ width: 320, maxWidth: '100%' }}
            />
          )}
          {exports.map((a) => (
            <ExportButton key={a.name} def={def} action={a} city={city} filters={filters} sorters={sorters} />
          ))}
          {ability.can('create', route.resource) && def.api.create && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(cityPath(city, route.create))}>
              {t('actions.create')}
            </Button>
          )}
        </Flex>
      }
    >
      <Table<BaseRecord> {...tableProps} columns={columns} rowKey="id" scroll={{ x: 'max-content' }} />
    </PageCard>
  );
}
