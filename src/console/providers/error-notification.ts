/**
 * What a failed data call shows (001 8), for Refine's `errorNotification` option: 409 is only logged
 * (console.warn); 403 shows nothing here (the sign-out it causes shows the permission message on
 * /login); everything else shows the error's message, which the fetch wrapper already made the
 * catalogue's text (500 server error for 5 s, 406 session expired, 405 and others the server's detail).
 */
import type { HttpError, OpenNotificationParams } from '@refinedev/core';
import { i18n } from '../i18n';

export function errorNotification(error?: HttpError): OpenNotificationParams | false {
  const status = error?.statusCode;
  if (status === 409) {
    console.warn('conflict (409): the record changed since it was loaded', error?.message);
    return false;
  }
  // 403 signs out (auth provider); /login shows the permission message once.
  if (status === 403) return false;
  return { type: 'error', key: `api-error-${status ?? 0}`, message: error?.message || i18n.t('errors.server_error') };
}
