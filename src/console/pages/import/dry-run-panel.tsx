/**
 * The check's answer on the upload page (001 7.16 dry run; 000 5 CSV rules; 001 8 the invalid
 * category warning): the counts (rows, new, updated, errors, warnings) with the language's thousands
 * separators, the problems row by row in a table (20 a page, 001 9), and a warning for a file
 * imported before (the import button then asks first). Everything the file holds is shown as text.
 */
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Flex, Statistic, Table, Typography } from 'antd';
import { DRY_RUN_PROBLEMS_MAX, type DryRunAnswer, type ImportProblem } from '@/shared/csv-import';
import { cityPath } from '../../resources/city-path';
import { formatNumber } from '../../resources/format-value';
import { IMPORT_PAGE_SIZE, importableRows } from './import-api';
import { LevelTag } from './import-status';

export interface DryRunPanelProps {
  answer: DryRunAnswer;
}

export function DryRunPanel({ answer }: DryRunPanelProps) {
  const { t, i18n } = useTranslation();
  const { city = '' } = useParams();
  const n = (value: number) => formatNumber(value, i18n.language);
  const counts: Array<[string, number, string?]> = [
    ['rows', answer.rows],
    ['create', answer.create],
    ['update', answer.update],
    ['errors', answer.errors, answer.errors > 0 ? '#cf1322' : undefined],
    ['warnings', answer.warnings, answer.warnings > 0 ? '#ad4e00' : undefined],
  ];

  return (
    <section aria-labelledby="dry-run-title" data-testid="dry-run">
      <Typography.Title level={4} id="dry-run-title" style={{ marginTop: 0 }}>
        {t('imports.dryRun.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('imports.dryRun.encoding', { name: answer.file_name, encoding: t(`enums.csv_import.encoding.${answer.encoding}`) })}</Typography.Paragraph>
      <Flex wrap gap={16} style={{ marginBottom: 16 }}>
        {counts.map(([key, value, color]) => (
          <Statistic key={key} title={t(`imports.dryRun.${key}`)} value={value} formatter={(v) => n(Number(v))} valueStyle={color ? { color } : undefined} style={{ minWidth: 140 }} />
        ))}
      </Flex>
      {answer.duplicate_of !== null && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('imports.dryRun.duplicate')}
          description={
            // The alert's text colour, underlined: the theme's link colour is too light on the warning's yellow (WCAG AA).
            <Link to={`${cityPath(city, 'import/history')}?log=${answer.duplicate_of}`} style={{ color: 'inherit', textDecoration: 'underline' }}>
              {t('imports.dryRun.duplicateLog')}
            </Link>
          }
        />
      )}
      {importableRows(answer) === 0 ? (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} message={t('imports.dryRun.nothing')} />
      ) : (
        answer.errors > 0 && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('imports.dryRun.skipped', { rows: n(answer.errors) })} />
      )}
      {answer.problems.length === 0 ? (
        <Alert type="success" showIcon message={t('imports.dryRun.noProblems')} />
      ) : (
        <>
          {answer.problems.length >= DRY_RUN_PROBLEMS_MAX && <Typography.Paragraph type="secondary">{t('imports.dryRun.someShown', { shown: n(answer.problems.length) })}</Typography.Paragraph>}
          <Table<ImportProblem & { key: number }>
            size="small"
            rowKey="key"
            dataSource={answer.problems.map((p, i) => ({ ...p, key: i }))}
            pagination={answer.problems.length > IMPORT_PAGE_SIZE ? { pageSize: IMPORT_PAGE_SIZE, showSizeChanger: false } : false}
            scroll={{ x: 'max-content' }}
            columns={[
              { key: 'row', title: t('imports.problems.row'), dataIndex: 'row', width: 80, align: 'right', render: (row: number) => n(row) },
              { key: 'column', title: t('imports.problems.column'), dataIndex: 'column', width: 160, render: (column: string | null) => column ?? '—' },
              { key: 'level', title: t('imports.problems.level'), dataIndex: 'level', width: 100, render: (level: ImportProblem['level']) => <LevelTag level={level} /> },
              { key: 'message', title: t('imports.problems.message'), dataIndex: 'message' },
            ]}
          />
        </>
      )}
    </section>
  );
}
