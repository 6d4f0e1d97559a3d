/**
 * The calls a page makes on its records, created once per page (not per row: Refine's mutation hooks
 * are costly to mount twenty times): delete and the `set`/`toggle` actions, with their messages.
 * - delete (000 4 local list updates): optimistic for `optimisticDelete` resources (the row goes at
 *   once and comes back if the server refuses), else after the answer; a 209 answer keeps the row
 *   and shows the server's message; success says 削除しました。
 * - action: the action's call on the record, then 保存しました。 and the record and list reload.
 * Both answer whether they succeeded; failures were shown by the error notification.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCustomMutation, useDelete, useInvalidate, type BaseKey } from '@refinedev/core';
import { App as AntdApp } from 'antd';
import { ERROR_TOAST_MS } from '@/shared/constants';
import { fillPath, getResource, type ActionDef } from '@/shared/registry';
import type { DeleteAnswer } from '../providers/data-provider';
import { errorNotification } from '../providers/error-notification';
import type { ResourceRoute } from './resource-routes';

type Method = 'post' | 'put' | 'patch' | 'delete';

export interface RecordCommands {
  remove: (id: BaseKey) => Promise<boolean>;
  run: (action: ActionDef, id: BaseKey) => Promise<boolean>;
  /** A pessimistic delete is waiting for its answer. */
  removing: boolean;
  running: boolean;
}

export function useRecordCommands(route: ResourceRoute, city: string): RecordCommands {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const invalidate = useInvalidate();
  const { mutateAsync: deleteOne, mutation: deleting } = useDelete();
  const { mutateAsync: custom, mutation: calling } = useCustomMutation();
  const optimistic = getResource(route.resource).optimisticDelete;

  const removing = deleting.isPending && !optimistic;
  const running = calling.isPending;
  // Refine's mutate functions and i18next's `t` are new objects on many renders: the commands read
  // the latest through a ref, so they (and a list's columns made with them) change only with what
  // they are about, not on every render of the page.
  const latest = useRef({ deleteOne, custom, invalidate, message, t });
  useLayoutEffect(() => {
    latest.current = { deleteOne, custom, invalidate, message, t };
  });
  return useMemo<RecordCommands>(() => {
    const remove = async (id: BaseKey) => {
      const { deleteOne, message, t } = latest.current;
      try {
        const { data } = await deleteOne({
          resource: route.identifier,
          id,
          meta: { city },
          mutationMode: optimistic ? 'optimistic' : 'pessimistic',
          successNotification: false,
          errorNotification,
        });
        const answer = data as unknown as DeleteAnswer;
        if (answer?.kept) {
          message.warning({
            content: answer.detail || t('errors.not_deleted'),
            duration: ERROR_TOAST_MS / 1000,
            key: 'deleted',
          });
          return false;
        }
        message.success({ content: t('messages.deleted'), key: 'deleted' });
        return true;
      } catch {
        return false; // the error notification has been shown (and an optimistic removal undone)
      }
    };

    const run = async (action: ActionDef, id: BaseKey) => {
      const { custom, invalidate, message, t } = latest.current;
      try {
        await custom({
          url: fillPath(action.path, { city, id }),
          method: action.method.toLowerCase() as Method,
          values: {},
          successNotification: false,
          errorNotification,
        });
        message.success({ content: t('messages.saved'), key: 'action-done' });
        await invalidate({
          resource: route.identifier,
          invalidates: ['list', 'detail'],
          id,
        });
        return true;
      } catch {
        return false;
      }
    };

    return { remove, run, removing, running };
  }, [route.identifier, city, optimistic, removing, running]);
}
