/**
 * The commands of the history page (001 7.16): download an import's failed rows as a CSV (the rows
 * not imported, with their error column) and delete a history entry (DELETE
 * /{city}/api/city/list-imported/{id}/: the entry and its log, not the shops). Errors go to Refine's
 * `onError` (a 403 signs out, 001 8) and to a message with the catalogue's text.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDelete, useOnError } from '@refinedev/core';
import { App as AntdApp } from 'antd';
import { ERROR_TOAST_MS } from '@/shared/constants';
import { errorNotification } from '../../providers/error-notification';
import { downloadFailedRows } from './import-api';

export interface HistoryCommands {
  /** Downloads the failed rows of import `id`; resolves when saved or refused (a message shown). */
  failedRows: (id: number) => Promise<void>;
  /** Deletes history entry `id`; resolves true when it is gone. */
  remove: (id: number) => Promise<boolean>;
}

export function useHistoryCommands(city: string): HistoryCommands {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const { mutate: onError } = useOnError();
  const { mutateAsync: deleteOne } = useDelete();

  return useMemo<HistoryCommands>(
    () => ({
      async failedRows(id) {
        try {
          await downloadFailedRows(city, id);
        } catch (e) {
          onError(e);
          message.error({ content: (e as Error).message, duration: ERROR_TOAST_MS / 1000, key: 'import-failed-rows' });
        }
      },
      async remove(id) {
        try {
          await deleteOne({ resource: 'csv_import', id, meta: { city }, mutationMode: 'pessimistic', successNotification: false, errorNotification });
          message.success({ content: t('messages.deleted'), key: 'import-deleted' });
          return true;
        } catch {
          return false; // the error notification has been shown
        }
      },
    }),
    [city, deleteOne, message, onError, t],
  );
}
