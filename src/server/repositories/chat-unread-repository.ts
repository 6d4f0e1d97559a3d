/**
 * The chat unread count of each user (000 2.3 'the chat item shows an unread badge, capped at 99';
 * 001 7.9 'Unread chat counts come from the field chatAdminUnread on the user's document'): this
 * server is that document store, the column `users.chat_admin_unread` (migration 0004), an integer
 * ≥ 0, written by the chat service (ours: PUT /default/api/users/chat-unread/).
 */
import type { Database, Queryable } from '../db/database';
import { announceUserEvent } from '../events/user-events';

/** The event a user's streams get when the count changes: data `{count}`. */
export const CHAT_UNREAD_EVENT = 'chat-unread';

/** The count of user `userId` (0 for an unknown user). */
export async function chatUnreadOf(db: Queryable, userId: number): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT chat_admin_unread AS n FROM users WHERE id = $1', [userId]);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Stores `count` (an integer ≥ 0, checked by the caller and by the column) as the count of user
 * `userId` and announces it to that user's streams after the commit (`chat-unread` {count}).
 * Resolves to false when there is no such user (nothing announced).
 */
export async function setChatUnread(db: Database, userId: number, count: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query('UPDATE users SET chat_admin_unread = $2 WHERE id = $1 RETURNING id', [userId, count]);
    if (rows.length === 0) return false;
    await announceUserEvent(tx, userId, CHAT_UNREAD_EVENT, { count });
    return true;
  });
}
