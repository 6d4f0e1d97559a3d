/**
 * Events of one user, announced to every server process on the database (live-channel.ts): the
 * writing transaction publishes `{u: user id, e: event name, d: data}` on the channel `user_event`
 * (after the commit only), and each process hands it to the streams of that user. Used for the chat
 * unread count (000 2.3 'the chat item shows an unread badge'; 001 7.9 chatAdminUnread).
 */
import type { Database, Queryable } from '../db/database';
import { publish, subscribe } from './live-channel';

/** The channel of user events. */
export const USER_CHANNEL = 'user_event';

/** Announces `event` with `data` (a small JSON object) to the streams of user `userId`, after the commit of `tx`. */
export async function announceUserEvent(tx: Queryable, userId: number, event: string, data: Record<string, unknown>): Promise<void> {
  await publish(tx, USER_CHANNEL, { u: userId, e: event, d: data });
}

/**
 * Calls `listener(event, data)` for every event of user `userId` from now on, from any process.
 * Resolves once listening, to the unsubscribe function. Errors: the first LISTEN's.
 */
export function onUserEvent(db: Database, userId: number, listener: (event: string, data: Record<string, unknown>) => void): Promise<() => void> {
  return subscribe(db, USER_CHANNEL, (p) => {
    if (p.u !== userId || typeof p.e !== 'string') return;
    listener(p.e, typeof p.d === 'object' && p.d !== null ? (p.d as Record<string, unknown>) : {});
  });
}
