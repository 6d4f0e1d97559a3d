/**
 * One import's log in a drawer of the history page (001 7.16 GET /{city}/api/logs-file-imported/{id}/;
 * 001 9: 20 a page): its status, progress while it runs and counts, its lines (row, column, level
 * as a tag, message) filtered by level, and its failed rows as a CSV. The drawer is rendered inside
 * the page (not the document's body) so that it leaves with its open-page tab (layout/kept-page.tsx).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnError } from '@refinedev/core';
import { Alert, Button, Drawer, Flex, Select, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { ImportHistoryRow } from '@/shared/csv-import';
import { formatNumber } from '../../resources/format-value';
import { IMPORT_PAGE_SIZE } from './import-api';
import { hasFailedRows } from './history-columns';
import { LevelTag, RowsProgress, StatusTag } from './import-status';
import { useImportLog, useImportState, type LogLine } from './use-import-queries';

const LEVELS: LogLine['level'][] = ['error', 'warning', 'info'];

export interface ImportLogDrawerProps {
  city: string;
  /** The import whose log is open, or null (closed). */
  id: number | null;
  /** Its history row when the list shows it (else its state is read). */
  row?: ImportHistoryRow;
  onClose: () => void;
  onFailedRows: (id: number) => void;
}

export function ImportLogDrawer({ city, id, row, onClose, onFailedRows }: ImportLogDrawerProps) {
  const { t, i18n } = useTranslation();
  const { mutate: onError } = useOnError();
  const [page, setPage] = useState(1);
  const [level, setLevel] = useState<LogLine['level'] | null>(null);
  const { data: state, error: stateError } = useImportState(city, id);
  const status = state?.status ?? row?.status;
  const running = status === 'processing';
  const log = useImportLog({ city, id, page, level, running });

  // Another import's log starts on its first page, every level.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
    setPage(1);
    setLevel(null);
  }, [id]);

  const failure = log.error ?? stateError;
  useEffect(() => {
    if (failure) onError(failure);
  }, [failure, onError]);

  const n = (value: number | undefined) => (typeof value === 'number' ? formatNumber(value, i18n.language) : '—');
  const name = state?.file_name ?? row?.file_name ?? '';
  const errors = state?.errors ?? row?.error_rows ?? 0;
  // The running state's counts, else the history row's (an entry whose state cannot be read).
  const summary = state
    ? { total: state.total, created: state.created, updated: state.updated, errors: state.errors, warnings: state.warnings }
    : row && { total: row.total_rows, created: row.created_rows, updated: row.updated_rows, errors: row.error_rows, warnings: row.warning_rows };
  const counts = summary ? t('imports.result.counts', { total: n(summary.total), created: n(summary.created), updated: n(summary.updated), errors: n(summary.errors), warnings: n(summary.warnings) }) : null;

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={t('imports.log.title', { name })}
      width="min(760px, 100vw)"
      getContainer={false}
      rootStyle={{ position: 'fixed' }}
      destroyOnHidden
      extra={
        id !== null && (
          <Button icon={<DownloadOutlined />} disabled={!hasFailedRows({ status: status ?? 'processing', error_rows: errors })} onClick={() => onFailedRows(id)}>
            {t('imports.history.failedRows')}
          </Button>
        )
      }
    >
      <Flex vertical gap={12} data-testid="import-log">
        <Flex gap={12} align="center" wrap>
          {status && <StatusTag status={status} />}
          {counts && <Typography.Text>{counts}</Typography.Text>}
        </Flex>
        {running && state && <RowsProgress done={state.done} total={state.total} status={state.status} />}
        {log.error && <Alert type="error" showIcon message={log.error.message} />}
        <Flex gap={8} align="center">
          <Typography.Text id="import-log-level">{t('imports.log.level')}</Typography.Text>
          <Select<LogLine['level'] | 'all'>
            aria-labelledby="import-log-level"
            value={level ?? 'all'}
            style={{ width: 160 }}
            options={[{ value: 'all', label: t('imports.log.all') }, ...LEVELS.map((l) => ({ value: l, label: t(`enums.csv_import_log.level.${l}`) }))]}
            onChange={(value) => {
              setLevel(value === 'all' ? null : value);
              setPage(1);
            }}
          />
        </Flex>
        <Table<LogLine>
          size="small"
          rowKey="id"
          loading={log.isFetching && !log.data}
          dataSource={log.data?.content ?? []}
          locale={{ emptyText: <Typography.Text>{t('imports.log.empty')}</Typography.Text> }}
          scroll={{ x: 'max-content' }}
          pagination={{ current: page, pageSize: IMPORT_PAGE_SIZE, total: log.data?.total_length ?? 0, showSizeChanger: false, onChange: setPage }}
          columns={[
            { key: 'row', title: t('imports.problems.row'), dataIndex: 'row_number', width: 72, align: 'right', render: (r: number | undefined) => (r ? n(r) : '—') },
            { key: 'column', title: t('imports.problems.column'), dataIndex: 'column', width: 140, render: (c: string | undefined) => c || '—' },
            { key: 'level', title: t('imports.problems.level'), dataIndex: 'level', width: 96, render: (l: LogLine['level']) => <LevelTag level={l} /> },
            { key: 'message', title: t('imports.problems.message'), dataIndex: 'message' },
          ]}
        />
      </Flex>
    </Drawer>
  );
}
