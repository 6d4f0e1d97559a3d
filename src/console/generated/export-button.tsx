/**
 * The list-level 'CSV' button of an `export` action (001 7: the list as CSV): downloads the file the
 * server makes for the list's current search and filters. Shown only when the ability allows it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnError, type CrudFilter, type CrudSort } from '@refinedev/core';
import { App as AntdApp, Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { ERROR_TOAST_MS } from '@/shared/constants';
import { fillPath, type ActionDef, type ResourceDef } from '@/shared/registry';
import { listQuery } from '../providers/data-provider';
import { requestResponse } from '../providers/http';
import { actionLabel, exportFileName } from './record-action-defs';

export interface ExportButtonProps {
  def: ResourceDef;
  action: ActionDef;
  city: string;
  filters: CrudFilter[];
  sorters: CrudSort[];
}

export function ExportButton({ def, action, city, filters, sorters }: ExportButtonProps) {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const [busy, setBusy] = useState(false);
  const { mutate: checkError } = useOnError();

  const download = async () => {
    setBusy(true);
    try {
      const { limit: _limit, offset: _offset, ...query } = listQuery(def, { filters, sorters, pagination: { mode: 'off' } });
      const res = await requestResponse(fillPath(action.path, { city }), { method: action.method, query, accept: 'text/csv' });
      const blob = await res.blob();
      const href = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = href;
      a.download = exportFileName(res.headers.get('Content-Disposition'), def.name);
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
    } catch (e) {
      checkError(e);
      message.error({ content: (e as Error).message, duration: ERROR_TOAST_MS / 1000, key: 'export-error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={download} title={actionLabel(action.name, t)} data-action={action.name}>
      CSV
    </Button>
  );
}
