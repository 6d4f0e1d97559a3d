/**
 * What a failed data call shows (001 8), for Refine's `errorNotification` option: 409 is only logged
 * (console.warn); everything else shows the error's message, which the fetch wrapper already made the
 * catalogue's text (500 server error, 403 permission, 406 session expired, else the server's detail).
 */
import type { HttpError, OpenNotificationParams } from '@refinedev/core';
import { i18n } from '../i18n';

export function errorNotification(error?: HttpError): OpenNotificationParams | false {
  const status = error?.statusCode;
  if (status === 409) {
    console.warn('conflict (409): the record changed since it was loaded', error?.message);
    return false;
  }
  return { type: 'error', key: `api-error-${status ?? 0}`, message: error?.message || i18n.t('errors.server_error') };
}
