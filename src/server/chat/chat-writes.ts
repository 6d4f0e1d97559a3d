/**
 * Writing chat (docs/architecture.md 'Chat'): sending a message, marking a conversation read,
 * deleting a message. Each runs in one transaction holding the city's chat lock (LOCK_CHAT with the
 * city's hash), so a city's messages and events commit in id order (chat-events.ts). A send keeps
 * the unread counts in the same transaction: +1 for every other participant, and for each Operator
 * among them +1 on `users.chat_admin_unread` (001 7.9 chatAdminUnread, the sidebar badge: the city
 * side's total), announced on that user's stream (repositories/chat-unread-repository.ts); reading a
 * conversation takes its count off again.
 */
import type { Queryable, Database } from '../db/database';
import { LOCK_CHAT } from '../db/migrations';
import { announceUserEvent } from '../events/user-events';
import { CHAT_UNREAD_EVENT } from '../repositories/chat-unread-repository';
import type { ChatSide } from './chat-access';
import { recordChatEvent } from './chat-events';
import type { ChatMessage } from '../../shared/chat';
import { MESSAGE_SQL, toMessage } from './chat-repository';

/** The window of the send rate limit (ms): CHAT_RATE_LIMIT messages per user within it. */
export const CHAT_RATE_WINDOW_MS = 60_000;

/** Who sends: the user, the name shown, the side of the conversation. */
export interface Sender {
  id: number;
  name: string;
  side: ChatSide;
}

async function lockCity(tx: Queryable, city: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CHAT, city]);
}

/** Makes `userId` a participant of conversation `id` on `side` (from its last message on: nothing unread) when not yet one. */
export async function joinConversation(tx: Queryable, id: number, userId: number, side: ChatSide): Promise<void> {
  await tx.query(
    `INSERT INTO chat_participants (conversation_id, user_id, side, last_read_id)
     SELECT id, $2, $3, COALESCE(last_message_id, 0) FROM chat_conversations WHERE id = $1 ON CONFLICT DO NOTHING`,
    [id, userId, side],
  );
}

/** Adds `delta` to the badge of each of `userIds` (never below 0) and announces the new counts after the commit. */
async function moveBadges(tx: Queryable, userIds: number[], delta: number): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (userIds.length === 0 || delta === 0) return counts;
  const rows = await tx.query<{ id: number; n: number }>(
    'UPDATE users SET chat_admin_unread = GREATEST(0, chat_admin_unread + $2) WHERE id = ANY($1::int[]) RETURNING id, chat_admin_unread AS n',
    [userIds, delta],
  );
  for (const r of rows) {
    counts.set(Number(r.id), Number(r.n));
    await announceUserEvent(tx, Number(r.id), CHAT_UNREAD_EVENT, { count: Number(r.n) });
  }
  return counts;
}

/** Marks everything read for `userId` in `tx`: its unread count goes to 0, the badge down by it (city side). Answers the badge (null: unchanged). */
async function readAll(tx: Queryable, id: number, userId: number, upTo: number): Promise<number | null> {
  const [p] = await tx.query<{ unread: number; side: string }>('SELECT unread, side FROM chat_participants WHERE conversation_id = $1 AND user_id = $2 FOR UPDATE', [id, userId]);
  if (!p) return null;
  await tx.query('UPDATE chat_participants SET unread = 0, last_read_id = GREATEST(last_read_id, $3) WHERE conversation_id = $1 AND user_id = $2', [id, userId, upTo]);
  if (p.side !== 'city' || Number(p.unread) === 0) return null;
  return (await moveBadges(tx, [userId], -Number(p.unread))).get(userId) ?? null;
}

/** Thrown by `sendMessage` when the sender is over its limit: `retryAfter` seconds until it may send again. */
export class ChatRateLimited extends Error {
  constructor(readonly retryAfter: number) {
    super('chat send rate limited');
  }
}

/**
 * Sends a message in conversation `conversationId` of `city` from `sender`: `text` (≤ 2,000
 * characters, checked by the route and the column) and/or the stored image file `imageFileId`.
 * `rateLimit` > 0: at most that many messages per sender within CHAT_RATE_WINDOW_MS, else
 * `ChatRateLimited`. The sender becomes a participant and has read everything; every other
 * participant gets one more unread. Resolves to the message.
 */
export async function sendMessage(
  db: Database,
  input: { city: string; conversationId: number; sender: Sender; text: string; imageFileId: number | null; rateLimit: number },
): Promise<ChatMessage> {
  const { city, conversationId: id, sender } = input;
  return db.transaction(async (tx) => {
    await lockCity(tx, city);
    if (input.rateLimit > 0) {
      const [r] = await tx.query<{ n: number; wait: number | null }>(
        `SELECT count(*)::int AS n, EXTRACT(EPOCH FROM min(created_at) + $2 * interval '1 millisecond' - clock_timestamp())::float8 AS wait
         FROM chat_messages WHERE sender_id = $1 AND created_at > clock_timestamp() - $2 * interval '1 millisecond'`,
        [sender.id, CHAT_RATE_WINDOW_MS],
      );
      if (Number(r.n) >= input.rateLimit) throw new ChatRateLimited(Math.max(1, Math.ceil(Number(r.wait ?? 1))));
    }
    const [m] = await tx.query<{ id: number; created_at: Date }>(
      'INSERT INTO chat_messages (conversation_id, sender_id, sender_name, side, text, image_file_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, created_at',
      [id, sender.id, sender.name, sender.side, input.text, input.imageFileId],
    );
    const messageId = Number(m.id);
    await tx.query('UPDATE chat_conversations SET last_message_id = $2, last_message_at = $3 WHERE id = $1', [id, messageId, m.created_at]);
    await joinConversation(tx, id, sender.id, sender.side);
    const others = await tx.query<{ user_id: number; side: string }>(
      'UPDATE chat_participants SET unread = unread + 1 WHERE conversation_id = $1 AND user_id <> $2 RETURNING user_id, side',
      [id, sender.id],
    );
    await moveBadges(
      tx,
      others.filter((o) => o.side === 'city').map((o) => Number(o.user_id)),
      1,
    );
    await readAll(tx, id, sender.id, messageId);
    await recordChatEvent(tx, city, id, messageId, 'message');
    const [row] = await tx.query(`${MESSAGE_SQL} WHERE m.id = $1`, [messageId]);
    return toMessage(row);
  });
}

/**
 * Marks conversation `id` read for `userId` (a participant on `side`, joined when not yet one): its
 * unread count 0, its last read message the newest, the badge down by what it had unread.
 * Resolves to the badge after it (the user's `chat_admin_unread`).
 */
export async function markRead(db: Database, id: number, userId: number, side: ChatSide): Promise<{ unread: number; chat_admin_unread: number }> {
  return db.transaction(async (tx) => {
    await joinConversation(tx, id, userId, side);
    const [{ last }] = await tx.query<{ last: number | null }>('SELECT max(id) AS last FROM chat_messages WHERE conversation_id = $1', [id]);
    await readAll(tx, id, userId, Number(last ?? 0));
    const [u] = await tx.query<{ n: number }>('SELECT chat_admin_unread AS n FROM users WHERE id = $1', [userId]);
    return { unread: 0, chat_admin_unread: Number(u?.n ?? 0) };
  });
}

/**
 * Deletes message `messageId` of conversation `conversationId` in `city`: it stays, flagged deleted,
 * without its text and image, and the streams hear of it. Resolves to the message (null: no such
 * message in that conversation). Deleting it again changes nothing.
 */
export async function deleteMessage(db: Database, city: string, conversationId: number, messageId: number): Promise<ChatMessage | null> {
  return db.transaction(async (tx) => {
    await lockCity(tx, city);
    const changed = await tx.query(
      "UPDATE chat_messages SET deleted = true, text = '', image_file_id = NULL WHERE id = $1 AND conversation_id = $2 AND NOT deleted RETURNING id",
      [messageId, conversationId],
    );
    if (changed.length > 0) await recordChatEvent(tx, city, conversationId, messageId, 'deleted');
    const [row] = await tx.query(`${MESSAGE_SQL} WHERE m.id = $1 AND m.conversation_id = $2`, [messageId, conversationId]);
    return row ? toMessage(row) : null;
  });
}
