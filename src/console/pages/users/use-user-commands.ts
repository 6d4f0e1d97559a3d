/**
 * The writes of the users page (001 7.2): create (POST), update (PUT) and delete (DELETE; an answer
 * 209 means the server kept the user: the entry stays and the server's message is shown). Errors of
 * every call go to Refine's `onError` (a 403 signs out, 001 8) and, except field errors a form shows,
 * to a notification with the catalogue's message.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnError } from '@refinedev/core';
import { App as AntdApp } from 'antd';
import { ERROR_TOAST_MS } from '@/shared/constants';
import { isApiError } from '../../providers/api-error';
import { DELETE_KEPT_STATUS } from '../../providers/data-provider';
import { errorNotification } from '../../providers/error-notification';
import { request, requestWithStatus } from '../../providers/http';
import { userBody, userPath, usersPath, type UserFormValues, type UserRow } from './user-api';

export interface UserCommands {
  /** Creates (id null) or updates a user. Resolves to the saved user; rejects with the ApiRequestError. */
  save: (id: number | null, values: UserFormValues) => Promise<UserRow>;
  /** Deletes a user; resolves true when it is gone, false when kept (209) or refused. */
  remove: (user: UserRow) => Promise<boolean>;
  /** An Administrator's sign-in actions (docs/architecture.md 'Staff sign-in'): DELETE /{city}/api/users/{id}/sessions/ or …/mfa/. */
  security: (user: UserRow, what: 'sessions' | 'mfa') => Promise<void>;
}

export function useUserCommands(city: string): UserCommands {
  const { t } = useTranslation();
  const { message, notification } = AntdApp.useApp();
  const { mutate: onError } = useOnError();

  return useMemo<UserCommands>(() => {
    const report = (error: unknown, withFields: boolean) => {
      onError(error);
      if (!isApiError(error) || (withFields && error.fields && Object.keys(error.fields).length > 0)) return;
      const shown = errorNotification(error);
      if (shown) notification.error({ message: shown.message, key: shown.key, duration: ERROR_TOAST_MS / 1000 });
    };
    return {
      async save(id, values) {
        try {
          const body = userBody(values);
          const saved = await request<UserRow>(id === null ? usersPath(city) : userPath(city, id), { method: id === null ? 'POST' : 'PUT', body });
          message.success({ content: t('messages.saved'), key: 'user-saved' });
          return saved;
        } catch (error) {
          report(error, true);
          throw error;
        }
      },
      async remove(user) {
        try {
          const { status, data } = await requestWithStatus<{ detail?: string } | undefined>(userPath(city, user.id), { method: 'DELETE' });
          if (status === DELETE_KEPT_STATUS) {
            message.warning({ content: data?.detail || t('errors.not_deleted'), duration: ERROR_TOAST_MS / 1000, key: 'user-deleted' });
            return false;
          }
          message.success({ content: t('messages.deleted'), key: 'user-deleted' });
          return true;
        } catch (error) {
          report(error, false);
          return false;
        }
      },
      async security(user, what) {
        try {
          const answer = await request<{ ended?: number; detail?: string }>(`${userPath(city, user.id)}${what}/`, { method: 'DELETE' });
          message.success({ content: answer.detail ?? t('security.profile.ended', { count: answer.ended ?? 0 }), key: 'user-security' });
        } catch (error) {
          report(error, false);
        }
      },
    };
  }, [city, message, notification, onError, t]);
}
