/**
 * How an import's state reads on both import pages (000 2.2 import/upload and import/history): its
 * status as a coloured tag and its progress as a bar of rows done of the total. The tags are solid
 * colours under white text that reach WCAG 2.1 AA (4.5:1; docs/architecture.md 'Beyond the spec').
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Progress, Tag } from 'antd';
import type { ImportProblem, ImportStatus } from '@/shared/csv-import';
import { formatNumber } from '../../resources/format-value';

const STATUS_COLOR: Record<ImportStatus, string> = {
  processing: '#0958d9',
  success: '#237804',
  partial: '#ad4e00',
  failed: '#cf1322',
  cancelled: '#595959',
};

/** The tag of an import's status (labels `enums.csv_import.status.*`). */
export function StatusTag({ status }: { status: ImportStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} data-status={status}>
      {t(`enums.csv_import.status.${status}`)}
    </Tag>
  );
}

const LEVEL_COLOR: Record<ImportProblem['level'] | 'info', string> = { error: '#cf1322', warning: '#ad4e00', info: '#0958d9' };

/** The tag of a problem's or log line's level (labels `enums.csv_import_log.level.*`). */
export function LevelTag({ level }: { level: ImportProblem['level'] | 'info' }) {
  const { t } = useTranslation();
  return <Tag color={LEVEL_COLOR[level] ?? LEVEL_COLOR.info}>{t(`enums.csv_import_log.level.${level}`)}</Tag>;
}

/** Percent (0–100, rounded down) of `done` of `total`; an ended import with no rows is 100. */
export function percentOf(done: number, total: number, ended: boolean): number {
  if (total <= 0) return ended ? 100 : 0;
  return Math.min(100, Math.floor((done / total) * 100));
}

/** 'Importing (done / total rows)' while it runs, 'done / total rows handled' once it has ended. */
export function rowsProgressText(t: TFunction, language: string, done: number, total: number, status: ImportStatus): string {
  const key = status === 'processing' ? 'imports.progress.processing' : 'imports.progress.handled';
  return t(key, { done: formatNumber(done, language), total: formatNumber(total, language) });
}

export interface RowsProgressProps {
  done: number;
  total: number;
  status: ImportStatus;
  /** A narrow bar for a table cell. */
  small?: boolean;
}

/** The bar of rows done of the total, labelled for assistive technology with its numbers. */
export function RowsProgress({ done, total, status, small = false }: RowsProgressProps) {
  const { t, i18n } = useTranslation();
  const percent = percentOf(done, total, status !== 'processing');
  const bar = status === 'processing' ? 'active' : status === 'failed' || status === 'cancelled' ? 'exception' : 'normal';
  const text = rowsProgressText(t, i18n.language, done, total, status);
  return (
    <Progress
      percent={percent}
      status={bar}
      size={small ? 'small' : 'default'}
      format={(p) => `${p ?? 0}%`}
      aria-label={t('imports.progress.label')}
      aria-valuetext={`${percent}% ${text}`}
      data-testid="import-progress"
      style={small ? { minWidth: 120, margin: 0 } : { margin: 0 }}
    />
  );
}
