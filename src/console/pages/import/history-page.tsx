/**
 * /{city}/import/history (000 2.2; 001 7.16, 9): the city's CSV imports, newest first, 20 a page,
 * searched by file name (GET /{city}/api/admin-tools/list-imported/, resource `csv_import`). Each
 * opens its log in a drawer (`?log=<id>` in the address, so the upload page can link to it), offers
 * its failed rows as a CSV and is deleted after a confirmation; a running import shows its progress.
 */
import { useCallback, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAbility } from '@casl/react';
import { useList } from '@refinedev/core';
import { Flex, Table } from 'antd';
import { ListSearch } from '../../components/list-search';
import type { AppAbility } from '@/shared/ability';
import type { ImportHistoryRow } from '@/shared/csv-import';
import { searchFilter } from '@/shared/list-query';
import { errorNotification } from '../../providers/error-notification';
import { cityPath } from '../../resources/city-path';
import { PageCard } from '../../resources/page-card';
import { IMPORT_PAGE_SIZE } from './import-api';
import { historyColumns } from './history-columns';
import { ImportLogDrawer } from './import-log-drawer';
import { useHistoryCommands } from './use-history-commands';

/** The import id of the `log` parameter, or null. */
function logIdOf(value: string | null): number | null {
  const id = Number(value);
  return value && Number.isInteger(id) && id > 0 ? id : null;
}

export function ImportHistoryPage() {
  const { t, i18n } = useTranslation();
  const { city = '' } = useParams();
  const ability = useAbility<AppAbility>();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const commands = useHistoryCommands(city);
  const logId = logIdOf(params.get('log'));

  const { result, query } = useList<ImportHistoryRow>({
    resource: 'csv_import',
    pagination: { currentPage: page, pageSize: IMPORT_PAGE_SIZE },
    sorters: [{ field: 'created_at', order: 'desc' }],
    filters: search ? [searchFilter(search) as { field: string; operator: 'contains'; value: string }] : [],
    meta: { city },
    queryOptions: { placeholderData: (previous) => previous },
    errorNotification,
  });
  const rows = result.data ?? [];
  const refetch = query.refetch;

  const openLog = useCallback(
    (id: number | null) => {
      const next = new URLSearchParams(params);
      if (id === null) next.delete('log');
      else next.set('log', String(id));
      setParams(next, { replace: id === null });
    },
    [params, setParams],
  );

  const columns = useMemo(
    () =>
      historyColumns({
        t,
        language: i18n.language,
        city,
        canDelete: ability.can('delete', 'csv_import'),
        onLog: (row) => openLog(row.id),
        onFailedRows: (row) => void commands.failedRows(row.id),
        onDelete: async (row) => {
          if (!(await commands.remove(row.id))) return;
          if (logId === row.id) openLog(null);
          // The last row of a page gone: show the page before it.
          if (rows.length === 1 && page > 1) setPage(page - 1);
        },
        onEnded: () => void refetch(),
      }),
    [t, i18n.language, city, ability, openLog, commands, logId, rows.length, page, refetch],
  );

  return (
    <PageCard
      title={t('imports.history.title')}
      extra={
        <Flex gap={12} wrap align="center">
          <ListSearch
            label={t('imports.history.search')}
            onSearch={(text) => {
              setSearch(text);
              setPage(1);
            }}
          />
          <Link to={cityPath(city, 'import/upload')}>{t('imports.history.new')}</Link>
        </Flex>
      }
    >
      <Table<ImportHistoryRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={query.isFetching && !query.data}
        scroll={{ x: 'max-content' }}
        pagination={{ current: page, pageSize: IMPORT_PAGE_SIZE, total: result.total ?? 0, showSizeChanger: false, onChange: setPage }}
      />
      <ImportLogDrawer
        city={city}
        id={logId}
        row={rows.find((r) => r.id === logId)}
        onClose={() => openLog(null)}
        onFailedRows={(id) => void commands.failedRows(id)}
      />
    </PageCard>
  );
}
