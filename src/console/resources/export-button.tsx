/**
 * The list-level 'CSV' button (docs/architecture.md 'Beyond the spec': CSV export; 001 7 export calls): downloads every page of the
 * list as its current search, filters and sort select, in UTF-8 with BOM or Shift_JIS (a choice in
 * its menu). Either a declared `export` action of the resource or, for any other list, the generic
 * export (src/shared/list-export.ts) with the columns shown. Shown only when the ability allows it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnError, type CrudFilter, type CrudSort } from '@refinedev/core';
import { App as AntdApp, Button, Dropdown } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { ERROR_TOAST_MS } from '@/shared/constants';
import { CSV_ENCODINGS, type CsvEncoding } from '@/shared/list-export';
import { encodeListQuery } from '@/shared/list-query';
import type { ResourceDef } from '@/shared/registry';
import { requestResponse } from '../providers/http';
import { saveResponse } from './download';

export interface ExportButtonProps {
  def: ResourceDef;
  /** The export call's path, the city filled in. */
  path: string;
  method?: 'GET' | 'POST';
  /** A name for the button (the action's name), for tests and tooltips. */
  name: string;
  title: string;
  filters: CrudFilter[];
  sorters: CrudSort[];
  /** The columns shown (the generic export writes these, in order). */
  columns?: string[];
}

const LABEL: Record<CsvEncoding, string> = { 'utf-8': 'lists.export.utf8', shift_jis: 'lists.export.sjis' };

export function ExportButton({ def, path, method = 'GET', name, title, filters, sorters, columns }: ExportButtonProps) {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const [busy, setBusy] = useState(false);
  const { mutate: checkError } = useOnError();

  const download = async (encoding: CsvEncoding) => {
    setBusy(true);
    try {
      const { limit: _limit, offset: _offset, ...query } = encodeListQuery(def, { filters, sorters, pagination: { mode: 'off' } });
      const res = await requestResponse(path, { method, query: { ...query, encoding, columns: columns?.join(',') }, accept: 'text/csv' });
      await saveResponse(res, def.name);
    } catch (e) {
      checkError(e);
      message.error({ content: (e as Error).message, duration: ERROR_TOAST_MS / 1000, key: 'export-error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dropdown
      trigger={['click']}
      menu={{ items: CSV_ENCODINGS.map((e) => ({ key: e, label: t(LABEL[e]) })), onClick: ({ key }) => void download(key as CsvEncoding) }}
    >
      <Button icon={<DownloadOutlined />} loading={busy} title={title} aria-label={`${title} CSV`} data-action={name}>
        CSV
      </Button>
    </Dropdown>
  );
}
