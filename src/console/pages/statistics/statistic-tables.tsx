/**
 * The tables of a statistic, the accessible form of its charts: one row per period, or one row per
 * group of the chosen dimension, each measure a column (sortable), and a total row of the range's
 * totals (for distinct users the total is the distinct count over the range, not the sum of rows).
 */
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Table, Typography, type TableColumnsType } from 'antd';
import type { StatisticAnswer, StatisticDef, StatisticValues } from '@/shared/statistics';
import { formatMeasure, formatPeriod } from './statistic-format';

/** One row of a table: its label, a sort key for the first column and the measures' values. */
interface Row {
  key: string;
  label: string;
  order: number;
  values: StatisticValues;
}

/** Rows per page of a table: the days of the 'last month' preset (up to 32) fit one page. */
const TABLE_PAGE_SIZE = 40;

function StatisticTable({ def, rows, totals, first, testId }: { def: StatisticDef; rows: Row[]; totals: StatisticValues; first: string; testId: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const columns: TableColumnsType<Row> = [
    { key: 'label', title: first, dataIndex: 'label', sorter: (a, b) => a.order - b.order, defaultSortOrder: undefined, ellipsis: true, width: 180 },
    ...def.measures.map((m) => ({
      key: m.key,
      title: t(m.label),
      align: 'right' as const,
      sorter: (a: Row, b: Row) => (a.values[m.key] ?? 0) - (b.values[m.key] ?? 0),
      render: (_: unknown, row: Row) => formatMeasure(row.values[m.key] ?? 0, m.format, locale),
    })),
  ];
  const summary = (): ReactNode => (
    <Table.Summary fixed="bottom">
      <Table.Summary.Row data-testid="statistic-total-row">
        <Table.Summary.Cell index={0}>
          <Typography.Text strong>{t('statistics.page.total')}</Typography.Text>
        </Table.Summary.Cell>
        {def.measures.map((m, i) => (
          <Table.Summary.Cell key={m.key} index={i + 1} align="right">
            <Typography.Text strong>{formatMeasure(totals[m.key] ?? 0, m.format, locale)}</Typography.Text>
          </Table.Summary.Cell>
        ))}
      </Table.Summary.Row>
    </Table.Summary>
  );
  return (
    <Table<Row>
      size="small"
      rowKey="key"
      columns={columns}
      dataSource={rows}
      summary={summary}
      pagination={rows.length > TABLE_PAGE_SIZE ? { pageSize: TABLE_PAGE_SIZE, showSizeChanger: false } : false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('statistics.page.empty') }}
      data-testid={testId}
    />
  );
}

/** The table by period: every period of the range in order, zero-filled. */
export function PeriodTable({ def, answer }: { def: StatisticDef; answer: StatisticAnswer }) {
  const { t } = useTranslation();
  const rows = useMemo(
    () => answer.series.map((s, i) => ({ key: s.period, label: formatPeriod(s.period, answer.interval), order: i, values: s.values })),
    [answer],
  );
  return <StatisticTable def={def} rows={rows} totals={answer.totals} first={t('statistics.page.period')} testId="statistic-period-table" />;
}

/** The table by the answer's dimension: its groups, main measure descending (at most 100), named by `labels`. */
export function GroupTable({ def, answer, labels }: { def: StatisticDef; answer: StatisticAnswer; labels: readonly string[] }) {
  const { t } = useTranslation();
  const dimension = def.dimensions.find((d) => d.key === answer.by);
  const rows = useMemo(() => answer.groups.map((g, i) => ({ key: `${i}:${String(g.key)}`, label: labels[i] ?? '', order: i, values: g.values })), [answer, labels]);
  return <StatisticTable def={def} rows={rows} totals={answer.totals} first={dimension ? t(dimension.label) : ''} testId="statistic-group-table" />;
}
