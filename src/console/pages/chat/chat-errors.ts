/**
 * The chat's error toasts (001 8: the cloud service's 'access failed' and 'no permission' messages,
 * now this service's): no answer or a server error → `live.chat.unreachable`; a refusal (403) →
 * `live.chat.refused`; anything else the server's own message.
 */
import { ApiRequestError } from '../../providers/api-error';

/** The message to show for a failed chat call. */
export function chatErrorText(err: unknown, t: (key: string) => string): string {
  if (err instanceof ApiRequestError) {
    if (err.status === 0 || err.status >= 500) return t('live.chat.unreachable');
    if (err.status === 403) return t('live.chat.refused');
    return err.message;
  }
  return t('live.chat.unreachable');
}
