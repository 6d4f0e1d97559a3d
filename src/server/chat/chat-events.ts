/**
 * Live chat events between the server processes of one database (docs/architecture.md 'Chat';
 * live-channel.ts): each message sent and each deletion is a row of `chat_events` written in the
 * same transaction, which also publishes `{c: city, id}` on the channel `chat_event` (ids only:
 * NOTIFY's payload is small). Each process reads the event once by id, with its message and its
 * conversation, and hands it to its open streams, which keep those their user may see
 * (chat-access.ts). The writes of a city take one advisory lock (chat-writes.ts), so a city's event
 * ids commit in increasing order: a stream resumes from the last id it wrote (`readChatEvents`)
 * without a gap or a repeat.
 */
import { registry } from '../../shared/registry';
import type { Database, Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import { publish, subscribe } from '../events/live-channel';
import type { ChatMessage, ConversationKey } from '../../shared/chat';
import { toConversationKey, toMessage } from './chat-repository';

/** The channel of chat events. */
export const CHAT_CHANNEL = 'chat_event';

/** An event as the streams get it: its id (the stream's event id), kind, conversation and message. */
export interface ChatEvent {
  id: number;
  kind: 'message' | 'deleted';
  conversation: ConversationKey & { id: number };
  message: ChatMessage;
}

const CLASS_TABLE = tableName(registry.get('school_class')!);

const EVENT_SQL = `SELECT e.id AS event_id, e.kind AS event_kind, c.city, c.kind, c.shop_id, c.class_id, c.teacher_id,
    (k.data->>'school')::bigint AS school_id,
    m.id, m.conversation_id, m.sender_id, m.sender_name, m.side, m.text, f.name AS image, m.deleted, m.created_at
  FROM chat_events e
  JOIN chat_conversations c ON c.id = e.conversation_id
  LEFT JOIN ${CLASS_TABLE} k ON c.kind = 'class' AND k.id = c.class_id
  JOIN chat_messages m ON m.id = e.message_id
  LEFT JOIN files f ON f.id = m.image_file_id`;


function toEvent(r: Record<string, unknown>): ChatEvent {
  return {
    id: Number(r.event_id),
    kind: r.event_kind as ChatEvent['kind'],
    conversation: { id: Number(r.conversation_id), ...toConversationKey(r) },
    message: toMessage(r),
  };
}

/**
 * Records event `kind` of message `messageId` in `tx` (which must hold the city's chat lock) and
 * announces it to every process after the commit. Resolves to the event id.
 */
export async function recordChatEvent(tx: Queryable, city: string, conversationId: number, messageId: number, kind: ChatEvent['kind']): Promise<number> {
  const [row] = await tx.query<{ id: number }>('INSERT INTO chat_events (city, conversation_id, message_id, kind) VALUES ($1, $2, $3, $4) RETURNING id', [
    city,
    conversationId,
    messageId,
    kind,
  ]);
  const id = Number(row.id);
  await publish(tx, CHAT_CHANNEL, { c: city, id });
  return id;
}

/** The events of `city` after event id `after`, oldest first, at most `limit`. */
export async function readChatEvents(db: Queryable, city: string, after: number, limit = 500): Promise<ChatEvent[]> {
  const rows = await db.query(`${EVENT_SQL} WHERE e.city = $1 AND e.id > $2 ORDER BY e.id LIMIT ${limit}`, [city, after]);
  return rows.map(toEvent);
}

/** The last event id of `city` (0 when none): where a new stream starts. */
export async function lastChatEventId(db: Queryable, city: string): Promise<number> {
  const [row] = await db.query<{ id: number | null }>('SELECT max(id) AS id FROM chat_events WHERE city = $1', [city]);
  return Number(row?.id ?? 0);
}

type Listener = (event: ChatEvent) => void;
const hubs = new WeakMap<Database, { listeners: Set<Listener>; ready: Promise<unknown> }>();

/**
 * Calls `listener` with every chat event committed from now on by any process on `db` (one read per
 * event and process, whatever the number of streams; in the order of the notifications). Resolves
 * once listening, to the unsubscribe function. Errors: the first LISTEN's.
 */
export async function onChatEvent(db: Database, listener: Listener): Promise<() => void> {
  let hub = hubs.get(db);
  if (!hub) {
    const listeners = new Set<Listener>();
    let queue: Promise<void> = Promise.resolve();
    const ready = subscribe(db, CHAT_CHANNEL, (p) => {
      const id = Number(p.id);
      if (!Number.isSafeInteger(id) || listeners.size === 0) return;
      queue = queue.then(async () => {
        try {
          const rows = await db.query(`${EVENT_SQL} WHERE e.id = $1`, [id]);
          for (const row of rows) {
            const event = toEvent(row);
            for (const l of listeners) {
              try {
                l(event);
              } catch {
                // a broken stream must not stop the others
              }
            }
          }
        } catch (err) {
          console.error(`chat events: reading event ${id}: ${(err as Error).message}`);
        }
      });
    });
    hub = { listeners, ready };
    hubs.set(db, hub);
    ready.catch(() => hubs.delete(db));
  }
  await hub.ready;
  const { listeners } = hub;
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
