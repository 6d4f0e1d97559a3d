/**
 * The CSV button of the statistics page (docs/architecture.md 'Beyond the spec': CSV export): the
 * table by period of the current query, one row per period and a total row, downloaded through the
 * statistic's export call in UTF-8 with BOM or Shift_JIS (a choice in its menu, as on the lists).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnError } from '@refinedev/core';
import { App as AntdApp, Button, Dropdown } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { ERROR_TOAST_MS } from '@/shared/constants';
import { CSV_ENCODINGS, type CsvEncoding } from '@/shared/list-export';
import { downloadStatistic, type StatisticQuery } from './statistic-api';

const LABEL: Record<CsvEncoding, string> = { 'utf-8': 'lists.export.utf8', shift_jis: 'lists.export.sjis' };

export function StatisticExportButton({ city, name, query }: { city: string; name: string; query: StatisticQuery }) {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const { mutate: checkError } = useOnError();
  const [busy, setBusy] = useState(false);
  const download = async (encoding: CsvEncoding) => {
    setBusy(true);
    try {
      await downloadStatistic(city, name, query, encoding);
    } catch (e) {
      checkError(e);
      message.error({ content: (e as Error).message, duration: ERROR_TOAST_MS / 1000, key: 'statistic-export-error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dropdown trigger={['click']} menu={{ items: CSV_ENCODINGS.map((e) => ({ key: e, label: t(LABEL[e]) })), onClick: ({ key }) => void download(key as CsvEncoding) }}>
      <Button icon={<DownloadOutlined />} loading={busy} title={t('lists.export.title')} aria-label={`${t('lists.export.title')} CSV`} data-testid="statistic-export">
        CSV
      </Button>
    </Dropdown>
  );
}
