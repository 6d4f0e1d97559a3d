/**
 * The columns of the import history (000 2.2 import/history; 001 7.16, 9): file name (opens the
 * log), kind, when (the Japanese date of 001 9) and who, encoding, rows, new, updated, errors,
 * warnings, the status as a coloured tag (with the progress of a running import), and the row's
 * commands: its log, its failed rows as a CSV and delete after a confirmation.
 */
import { useEffect } from 'react';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import type { TableColumnsType } from 'antd';
import { Button, Flex, Popconfirm, Tooltip } from 'antd';
import { DeleteOutlined, DownloadOutlined, FileSearchOutlined } from '@ant-design/icons';
import type { ImportHistoryRow, ImportStatus } from '@/shared/csv-import';
import { FORMATS, formatNumber } from '../../resources/format-value';
import { RowsProgress, StatusTag } from './import-status';
import { useImportState } from './use-import-queries';

/** When an import was made: the Japanese date of 001 9 and the time to the minute. */
const WHEN_FORMAT = `${FORMATS.dateJa} ${FORMATS.time}`;

/** Whether an import has rows that were not imported (a failed-rows CSV to download). */
export function hasFailedRows(row: Pick<ImportHistoryRow, 'status' | 'error_rows'>): boolean {
  return row.status !== 'processing' && ((row.error_rows ?? 0) > 0 || row.status === 'failed');
}

/** The status of a history row; a running import's progress, read until it ends (then `onEnded`). */
function StatusCell({ city, row, onEnded }: { city: string; row: ImportHistoryRow; onEnded: () => void }) {
  const running = row.status === 'processing';
  const { data: state } = useImportState(city, running ? row.id : null);
  const status: ImportStatus = state?.status ?? row.status;
  useEffect(() => {
    if (running && state && state.status !== 'processing') onEnded();
  }, [running, state, onEnded]);
  return (
    <Flex vertical gap={4} style={{ whiteSpace: 'nowrap' }}>
      <span>
        <StatusTag status={status} />
      </span>
      {status === 'processing' && state && <RowsProgress done={state.done} total={state.total} status={status} small />}
    </Flex>
  );
}

export interface HistoryColumnsOptions {
  t: TFunction;
  language: string;
  city: string;
  canDelete: boolean;
  onLog: (row: ImportHistoryRow) => void;
  onFailedRows: (row: ImportHistoryRow) => void;
  onDelete: (row: ImportHistoryRow) => void;
  onEnded: () => void;
}

/** The history table's columns. */
export function historyColumns({ t, language, city, canDelete, onLog, onFailedRows, onDelete, onEnded }: HistoryColumnsOptions): TableColumnsType<ImportHistoryRow> {
  const count = (value: number | undefined) => (typeof value === 'number' ? formatNumber(value, language) : '—');
  const numeric = (key: keyof ImportHistoryRow, title: string) => ({
    key,
    title,
    dataIndex: key,
    align: 'right' as const,
    render: (value: number | undefined) => count(value),
  });
  return [
    {
      key: 'file_name',
      title: t('imports.history.fileName'),
      dataIndex: 'file_name',
      width: 180,
      render: (name: string, row) => (
        <Button type="link" onClick={() => onLog(row)} style={{ padding: 0, height: 'auto', whiteSpace: 'normal', overflowWrap: 'anywhere', textAlign: 'left' }}>
          {name}
        </Button>
      ),
    },
    { key: 'kind', title: t('imports.history.kind'), dataIndex: 'kind', render: (kind: ImportHistoryRow['kind']) => t(`imports.upload.kinds.${kind}`) },
    {
      // When and by whom, one above the other: the table keeps its 12 facts within a laptop's width.
      key: 'created_at',
      title: t('imports.history.whenWho'),
      dataIndex: 'created_at',
      render: (at: string, row) => (
        <Flex vertical style={{ whiteSpace: 'nowrap' }}>
          <span>{dayjs(at).isValid() ? dayjs(at).format(WHEN_FORMAT) : ''}</span>
          <span>{row.imported_by || '—'}</span>
        </Flex>
      ),
    },
    { key: 'encoding', title: t('imports.history.encoding'), dataIndex: 'encoding', render: (e: string | undefined) => (e ? t(`enums.csv_import.encoding.${e}`) : '—') },
    numeric('total_rows', t('imports.history.rows')),
    numeric('created_rows', t('imports.history.created')),
    numeric('updated_rows', t('imports.history.updated')),
    numeric('error_rows', t('imports.history.errors')),
    numeric('warning_rows', t('imports.history.warnings')),
    { key: 'status', title: t('imports.history.status'), dataIndex: 'status', render: (_: ImportStatus, row) => <StatusCell city={city} row={row} onEnded={onEnded} /> },
    {
      key: 'actions',
      title: t('actions.actions'),
      render: (_: unknown, row) => (
        <Flex gap={4}>
          <Tooltip title={t('imports.history.log')}>
            <Button size="small" icon={<FileSearchOutlined />} aria-label={t('imports.history.log')} onClick={() => onLog(row)} />
          </Tooltip>
          <Tooltip title={t('imports.history.failedRows')}>
            <Button size="small" icon={<DownloadOutlined />} aria-label={t('imports.history.failedRows')} disabled={!hasFailedRows(row)} onClick={() => onFailedRows(row)} />
          </Tooltip>
          {canDelete && (
            <Popconfirm title={t('imports.history.deleteConfirm')} okText={t('actions.delete')} cancelText={t('actions.cancel')} okButtonProps={{ danger: true }} onConfirm={() => onDelete(row)}>
              <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('actions.delete')} disabled={row.status === 'processing'} />
            </Popconfirm>
          )}
        </Flex>
      ),
    },
  ];
}
