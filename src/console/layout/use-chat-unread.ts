/**
 * The chat unread count of the signed-in user (000 2.3 'the chat item shows an unread badge'; 001 7.9
 * chatAdminUnread): the user info's `chat_admin_unread` (reloaded on every route change, 000 4) and,
 * for the roles with the chat entry (ability `read` on `chat_unread`: Administrator, Operator), live
 * over server-sent events: GET /default/api/users/chat-unread/stream sends `chat-unread` {count} when
 * the count is set (by the chat service, PUT /default/api/users/chat-unread/). No polling.
 */
import { useEffect } from 'react';
import { useAbility } from '@casl/react';
import type { AppAbility } from '@/shared/ability';
import { useSession } from '../hooks/use-session';
import { setChatUnread } from '../providers/session';

/** The stream of the caller's own chat unread count (ours). */
export const CHAT_UNREAD_STREAM = '/default/api/users/chat-unread/stream';

/** Answers the current count (0 when unknown) and keeps it live while the component is mounted. */
export function useChatUnread(): number {
  const ability = useAbility<AppAbility>();
  const { chatUnread } = useSession();
  const live = ability.can('read', 'chat_unread');
  useEffect(() => {
    if (!live || typeof EventSource === 'undefined') return;
    const source = new EventSource(CHAT_UNREAD_STREAM);
    source.addEventListener('chat-unread', (ev) => {
      try {
        const count = Number((JSON.parse((ev as MessageEvent<string>).data) as { count?: unknown }).count);
        if (Number.isInteger(count) && count >= 0) setChatUnread(count);
      } catch {
        // a malformed event is skipped
      }
    });
    return () => source.close();
  }, [live]);
  return chatUnread;
}
