/**
 * The chat unread count of the signed-in user (000 2.3 'the chat item shows an unread badge'; 001 7.9
 * chatAdminUnread): the user info's `chat_admin_unread` (reloaded on every route change, 000 4) and,
 * for the roles with the chat entry (ability `read` on `chat_unread`: Administrator, Operator), live
 * over server-sent events: GET /default/api/users/chat-unread/stream sends `chat-unread` {count} at
 * each opening (a reconnection misses nothing) and when the count is set (by the chat service,
 * PUT /default/api/users/chat-unread/). No polling.
 */
import { useEffect } from 'react';
import { useAbility } from '@casl/react';
import type { AppAbility } from '@/shared/ability';
import { useSessionValue } from '../hooks/use-session';
import { openLiveStream } from '../providers/live-stream';
import { setChatUnread } from '../providers/session';

/** The stream of the caller's own chat unread count (ours). */
export const CHAT_UNREAD_STREAM = '/default/api/users/chat-unread/stream';

/** Answers the current count (0 when unknown) and keeps it live while the component is mounted. */
export function useChatUnread(): number {
  const ability = useAbility<AppAbility>();
  const chatUnread = useSessionValue('chatUnread');
  const live = ability.can('read', 'chat_unread');
  useEffect(() => {
    if (!live) return;
    return openLiveStream(CHAT_UNREAD_STREAM, {
      'chat-unread': (data) => {
        const count = Number((data as { count?: unknown } | null)?.count);
        if (Number.isInteger(count) && count >= 0) setChatUnread(count);
      },
    });
  }, [live]);
  return chatUnread;
}
