/**
 * The generated list page of any resource (docs/architecture.md 'Console'; 000 4): an antd Table over the
 * list controller `useResourceList` (./use-resource-list: Refine core's `useTable`); columns from the schema's `list.columns` (less
 * `x-hidden-in-list` fields; which and in what order the user chooses) with translated titles,
 * values as ./field-value shows them; a search box (when the schema declares search fields) and a
 * date-range filter with presets on the date columns, both returning to page 1 (000 4); a one-value
 * filter in the header of an enum column with a declared `equals` filter (also page 1); sorting on
 * the declared sort fields; page size from the schema (001 9: 20); saved views (./saved-views-bar);
 * bulk selection and delete, create/show/edit/複製/delete, the `set`/`toggle` actions and the CSV export
 * only where the ability allows; the ごみ箱 (./recycle-bin.tsx) for roles that may bring deleted rows
 * back. Fields the user may not read are no column, search or sort (./field-access.ts).
 *
 * A reference column (`x-ref`) shows the referenced rows' names, asked once per referenced resource
 * and page (./reference-labels), is filtered by choosing names (./reference-filter) and, where the
 * schema declares it a sort field, sorted by them (on the server). A row's
 * actions are one link and one overflow menu (./record-actions `RowActions`). Below 576 px the rows
 * are cards (./resource-cards) and the search, date range, saved views, columns and CSV fold into
 * one filter drawer.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAbility } from '@casl/react';
import type { BaseKey, BaseRecord } from '@refinedev/core';
import { Badge, Button, Drawer, Flex, Input, Table } from 'antd';
import type { ColumnsType, FilterDropdownProps, TableRowSelection } from 'antd/es/table/interface';
import { FilterOutlined, PlusOutlined, RestOutlined } from '@ant-design/icons';
import type { AppAbility } from '@/shared/ability';
import { exportable, listExportPath } from '@/shared/list-export';
import { fillPath } from '@/shared/registry';
import { isRangeFilter, isRefField, isSearchFilter } from '@/shared/list-query';
import { getResource } from '@/shared/registry';
import { keepsRevisions } from '@/shared/revisions';
import { useIsMobile } from '../hooks/use-is-mobile';
import { useIsPhone } from '../hooks/use-is-phone';
import { BulkDeleteButton } from './bulk-delete-button';
import { cityPath } from './city-path';
import { ColumnChooser } from './column-chooser';
import { DateRangeFilter } from './date-range-filter';
import { ExportButton } from './export-button';
import { FieldValue } from './field-value';
import { cellFormatter, formatCompactNumber, formatNumber, isRelativeField } from './format-value';
import { currentLanguage } from '../i18n';
import { actionLabel, listActions } from './record-action-defs';
import { RowActions, useRecordActionSet } from './record-actions';
import { useReferenceLabels } from './reference-labels';
import { ReferenceFilter } from './reference-filter';
import { ReferenceValue } from './reference-value';
import { ResourceCards } from './resource-cards';
import { useRecordCommands } from './record-commands';
import type { ResourceRoute } from './resource-routes';
import { PageCard } from './page-card';
import { SavedViewsBar } from './saved-views-bar';
import { columnFilterFields, columnFilterValue, refFilterValue, sortOrderOf, useResourceList } from './use-resource-list';
import { enumLabelKeys, enumValues } from './field-kinds';
import './resource-list.css';

export function ResourceList({ route }: { route: ResourceRoute }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { city = '' } = useParams();
  const ability = useAbility<AppAbility>();
  const mobile = useIsMobile();
  const phone = useIsPhone();
  const [drawer, setDrawer] = useState(false);
  const actionSet = useRecordActionSet(route, city, useRecordCommands(route, city));
  const list = useResourceList(route, city);
  const { def, shown, sorters, filters, selected, setSelected } = list;
  const cardFields = useMemo(() => (phone ? [...new Set([...shown, ...def.list.columns])] : shown), [phone, shown, def]);
  const refLabels = useReferenceLabels(def, cardFields, list.rows, city);

  const language = currentLanguage();
  const columns = useMemo<ColumnsType<BaseRecord>>(() => {
    const filterable = columnFilterFields(def);
    const cols: ColumnsType<BaseRecord> = shown.map((field) => {
      const prop = def.schema.properties[field];
      const sortable = def.list.sort.includes(field);
      const labels = enumLabelKeys(prop);
      const values = filterable.has(field) ? enumValues(prop) : undefined;
      const chosen = values ? columnFilterValue(field, filters) : null;
      const ref = isRefField(def, field) ? prop['x-ref']! : null;
      // A reference column is filtered by choosing rows by name, where the session may read them.
      const refFilter = ref && ability.can('read', ref) && getResource(ref).api.list.method === 'GET';
      const title = t(prop.title);
      const relative = isRelativeField(field, prop, def.createdField);
      const text = cellFormatter(prop, t, language);
      return {
        ...(refFilter
          ? {
              filteredValue: refFilterValue(field, filters),
              filterIcon: (on: boolean) => <FilterOutlined aria-label={t('lists.rows.refFilter', { title })} style={on ? { color: '#1677ff' } : undefined} />,
              filterDropdown: (dropdown: FilterDropdownProps) => <ReferenceFilter resource={ref} city={city} title={title} {...dropdown} />,
            }
          : {}),
        ...(values
          ? {
              filters: values.map((v, i) => ({ text: labels?.[i] ? t(labels[i]) : String(v), value: String(v) })),
              filterMultiple: false,
              filteredValue: chosen === null ? null : [chosen],
            }
          : {}),
        key: field,
        dataIndex: field,
        title,
        sorter: sortable,
        sortOrder: sortable ? sortOrderOf(field, sorters) : undefined,
        // Free text keeps its line breaks and wraps to make room; numbers, dates and choices keep to one
        // line (resource-list.css).
        className: prop.type === 'string' && !prop.enum && !prop.format ? 'resource-cell-text' : 'resource-cell-nowrap',
        render: ref
          ? (value: unknown) => <ReferenceValue resource={ref} value={value} labels={refLabels} />
          : relative
            ? (value: unknown) => <FieldValue prop={prop} value={value} relative />
            : (value: unknown) => text(value) ?? <FieldValue prop={prop} value={value} />,
      };
    });
    cols.push({
      key: '__actions',
      title: t('actions.actions'),
      fixed: mobile ? undefined : 'right',
      render: (_: unknown, record: BaseRecord) => <RowActions set={actionSet} id={record.id!} record={record} />,
    });
    return cols;
  }, [def, shown, sorters, filters, t, language, mobile, actionSet, refLabels, ability, city]);
  const exports = listActions(def, (a, s) => ability.can(a, s));
  const canDelete = ability.can('delete', route.resource) && !!def.api.delete;
  // The recycle bin: for those who may bring a row back (the server's undelete needs create).
  const bin = keepsRevisions(def) && !!def.api.delete && ability.can('create', route.resource);

  // Made once per change: a new selection config makes antd build its columns, and so every cell, anew.
  const rowSelection = useMemo<TableRowSelection<BaseRecord> | undefined>(
    () =>
      canDelete
        ? {
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys as BaseKey[]),
            preserveSelectedRowKeys: true,
            getCheckboxProps: (record) => ({ 'aria-label': `${t('lists.a11y.selectRow')} ${String(record.id)}` }) as never,
          }
        : undefined,
    [canDelete, selected, setSelected, t],
  );

  const pagination = {
    ...list.pagination,
    simple: mobile,
    position: [mobile ? 'bottomCenter' : 'bottomRight'] as ['bottomCenter' | 'bottomRight'],
    showTotal: (total: number) => (
      <span title={formatNumber(total, i18n.language)}>{total >= 10_000 ? formatCompactNumber(total) : formatNumber(total, i18n.language)}</span>
    ),
  };

  const search = def.list.search.length > 0 && (
    <Input.Search
      key={list.search}
      defaultValue={list.search}
      placeholder={t('actions.search')}
      aria-label={t('actions.search')}
      allowClear
      enterButton={t('actions.search')}
      onSearch={(text) => {
        setDrawer(false);
        list.onSearch(text);
      }}
      style={{ width: phone ? '100%' : 320, maxWidth: '100%' }}
    />
  );
  const tools: ReactNode = (
    <>
      <DateRangeFilter def={def} filters={filters} onChange={list.onRange} />
      {exports.map((a) => (
        <ExportButton key={a.name} def={def} path={fillPath(a.path, { city })} method={a.method === 'POST' ? 'POST' : 'GET'} name={a.name} title={actionLabel(a.name, t)} filters={filters} sorters={sorters} />
      ))}
      {bin && (
        <Button icon={<RestOutlined />} onClick={() => navigate(cityPath(city, route.trash))}>
          {t('history.bin.open')}
        </Button>
      )}
      {exports.length === 0 && exportable(def) && (
        <ExportButton def={def} path={listExportPath(city, def.name)} name="export" title={t('lists.export.title')} filters={filters} sorters={sorters} columns={shown} />
      )}
    </>
  );
  const create = ability.can('create', route.resource) && def.api.create && (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(cityPath(city, route.create))}>
      {t('actions.create')}
    </Button>
  );
  const views = <SavedViewsBar city={city} resource={def.name} current={list.view} onApply={list.applyView} restore={list.restore} />;
  // How many of search, date range and other filters narrow the list (the drawer button's badge).
  const active = filters.filter((f) => 'field' in f && (isSearchFilter(f) || isRangeFilter(def, f) || f.operator === 'eq' || f.operator === 'in')).length;

  if (phone) {
    return (
      <PageCard
        title={t(route.title)}
        extra={
          <Flex gap={8} align="center">
            <Badge count={active} size="small">
              <Button icon={<FilterOutlined />} onClick={() => setDrawer(true)} aria-expanded={drawer} data-testid="list-filters">
                {t('lists.rows.filters')}
              </Button>
            </Badge>
            {create}
          </Flex>
        }
      >
        <Drawer open={drawer} onClose={() => setDrawer(false)} placement="bottom" height="auto" title={t('lists.rows.filtersTitle')} styles={{ body: { paddingBottom: 24 } }}>
          <Flex vertical gap={12}>
            {search}
            {views}
            <Flex gap={8} wrap align="center" className="list-drawer-tools">
              {tools}
            </Flex>
          </Flex>
        </Drawer>
        <ResourceCards def={def} rows={list.rows} loading={list.loading} actionSet={actionSet} labels={refLabels} pagination={{ ...list.pagination, showSizeChanger: false }} onPage={list.onPage} />
      </PageCard>
    );
  }

  return (
    <PageCard
      title={t(route.title)}
      extra={
        <Flex gap={12} wrap align="center">
          {search}
          {tools}
          {create}
        </Flex>
      }
    >
      <Flex gap={8} wrap align="center" justify="space-between" style={{ marginBottom: 12 }}>
        {views}
        <Flex gap={8} wrap align="center">
          {canDelete && selected.length > 0 && <BulkDeleteButton route={route} city={city} ids={selected} onDone={setSelected} />}
          <ColumnChooser def={def} value={shown} onChange={list.setShown} />
        </Flex>
      </Flex>
      <Table<BaseRecord>
        className="resource-list-table"
        dataSource={list.rows}
        loading={list.loading}
        onChange={list.onTableChange}
        pagination={pagination}
        columns={columns}
        rowKey="id"
        // As wide as the card, wrapping long cells (resource-list.css), and scrolling sideways only when
        // the columns' narrowest widths exceed it: 'max-content' would never wrap and cut the actions.
        scroll={{ x: true }}
        tableLayout="auto"
        rowSelection={rowSelection}
      />
    </PageCard>
  );
}
