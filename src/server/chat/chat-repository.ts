/**
 * Reading chat conversations and messages (000 2.2 chat, group/chat; 001 9 'page size 20: chat';
 * tables of migration 0007-chat, docs/architecture.md 'Chat'). Conversations of a shop join the
 * shop's advertisement row (name, first photo), those of a class the class row (name, school).
 */
import { registry } from '../../shared/registry';
import type { Profile } from '../../shared/roles';
import { effectiveRole } from '../../shared/roles';
import type { Queryable } from '../db/database';
import { tableName } from '../db/resource-tables';
import { fileUrl } from '../files/file-names';
import { CHAT_PAGE_SIZE, type ChatConversation, type ChatMessage, type ConversationKey } from '../../shared/chat';


const AD_TABLE = tableName(registry.get('advertisement')!);
const CLASS_TABLE = tableName(registry.get('school_class')!);


/** The SELECT list and FROM of a message row (`m`, its image file `f`). */
export const MESSAGE_SQL = `SELECT m.id, m.conversation_id, m.sender_id, m.sender_name, m.side, m.text, f.name AS image, m.deleted, m.created_at
  FROM chat_messages m LEFT JOIN files f ON f.id = m.image_file_id`;

/** A message row of MESSAGE_SQL as the API answers it. */
export function toMessage(r: Record<string, unknown>): ChatMessage {
  const deleted = Boolean(r.deleted);
  return {
    id: Number(r.id),
    conversation_id: Number(r.conversation_id),
    sender_id: r.sender_id === null ? null : Number(r.sender_id),
    sender_name: String(r.sender_name ?? ''),
    side: String(r.side),
    text: deleted ? '' : String(r.text ?? ''),
    image_url: deleted || !r.image ? null : fileUrl(String(r.image)),
    deleted,
    created_at: new Date(r.created_at as string).toISOString(),
  };
}

/**
 * The columns and FROM of conversations `c` with their shop, class, teacher, last message and `$1`'s
 * unread count; of one kind (the other kind's columns NULL) or of both (null). Each is a lookup by
 * key of its own (a lateral subquery or a scalar one), not a join, and a list of one kind leaves the
 * other kind's tables out: a plain join of the seven tables cost more to plan than to run (on PGlite
 * 9 ms a list, planning most of it; docs/performance.md 'Chat'). `k` (the class) stays a name the
 * WHERE may use.
 */
function conversationParts(kind: 'shop' | 'class' | null): { columns: string; from: string } {
  const shop = kind !== 'class';
  const klass = kind !== 'shop';
  const columns = `c.id, c.city, c.kind, c.shop_id, c.class_id, c.teacher_id,
    ${shop ? 's.name AS shop_name, s.image AS shop_image' : 'NULL::text AS shop_name, NULL::text AS shop_image'},
    ${klass ? 'k.name AS class_name, k.school AS school_id, (SELECT t.name FROM users t WHERE t.id = c.teacher_id) AS teacher_name' : 'NULL::text AS class_name, NULL::bigint AS school_id, NULL::text AS teacher_name'},
    COALESCE((SELECT p.unread FROM chat_participants p WHERE p.conversation_id = c.id AND p.user_id = $1), 0) AS unread,
    m.id AS m_id, m.sender_id AS m_sender_id, m.sender_name AS m_sender_name, m.side AS m_side, m.text AS m_text,
    (SELECT f.name FROM files f WHERE f.id = m.image_file_id) AS m_image, m.deleted AS m_deleted, m.created_at AS m_created_at`;
  const from = `FROM chat_conversations c
  ${shop ? `LEFT JOIN LATERAL (SELECT a.data->>'name' AS name, a.data->'photos'->>0 AS image FROM ${AD_TABLE} a WHERE c.kind = 'shop' AND a.id = c.shop_id) s ON true` : ''}
  ${klass ? `LEFT JOIN LATERAL (SELECT k.data->>'name' AS name, (k.data->>'school')::bigint AS school FROM ${CLASS_TABLE} k WHERE c.kind = 'class' AND k.id = c.class_id) k ON true` : ''}
  LEFT JOIN LATERAL (SELECT * FROM chat_messages m WHERE m.id = c.last_message_id) m ON true`;
  return { columns, from };
}
const ANY_KIND = conversationParts(null);
const CONVERSATION_SQL = `SELECT ${ANY_KIND.columns} ${ANY_KIND.from}`;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The conversation key of a row of CONVERSATION_SQL or the events' SQL (chat-events.ts). */
export function toConversationKey(r: Record<string, unknown>): ConversationKey {
  return { city: String(r.city), kind: r.kind as 'shop' | 'class', shop_id: num(r.shop_id), class_id: num(r.class_id), teacher_id: num(r.teacher_id), school_id: num(r.school_id) };
}

/** The message of a row whose columns `m_<column>` are a message's (null when `m_id` is), in conversation `r.id`. */
function prefixedMessage(r: Record<string, unknown>): ChatMessage | null {
  if (r.m_id === null || r.m_id === undefined) return null;
  const m = { conversation_id: r.id, ...Object.fromEntries(Object.entries(r).filter(([k]) => k.startsWith('m_')).map(([k, v]) => [k.slice(2), v])) };
  return toMessage(m);
}

function toConversation(r: Record<string, unknown>): ChatConversation {
  const last = prefixedMessage(r);
  return {
    id: Number(r.id),
    ...toConversationKey(r),
    shop_name: (r.shop_name as string | null) ?? null,
    shop_image: (r.shop_image as string | null) ?? null,
    class_name: (r.class_name as string | null) ?? null,
    teacher_name: (r.teacher_name as string | null) ?? null,
    last_message: last,
    unread: Number(r.unread ?? 0),
  };
}

/** One conversation by id with `userId`'s unread count; null when there is none. */
export async function findConversation(db: Queryable, id: number, userId: number): Promise<ChatConversation | null> {
  const rows = await db.query(`${CONVERSATION_SQL} WHERE c.id = $2`, [userId, id]);
  return rows[0] ? toConversation(rows[0]) : null;
}

/**
 * The WHERE of the conversations of kind `kind` in `city` that `profile` sees in its list
 * (chat-access.ts in SQL): Operators and Administrators every shop conversation of the city, an
 * Advertiser its shops', a Teacher its own class chats, a President its school's, an Operator every
 * class chat of the city. Null: none at all. `params` holds `$1` (the caller) and `$2` (the city); more are added.
 */
function listWhere(profile: Profile, kind: 'shop' | 'class', params: unknown[]): string | null {
  const role = effectiveRole(profile);
  const p = (v: unknown) => `$${params.push(v)}`;
  const base = `c.city = $2 AND c.kind = '${kind}'`;
  if (kind === 'shop') {
    if (role === 'Operator' || role === 'Administrator') return base;
    if (role === 'Advertiser') return `${base} AND c.shop_id = ANY(${p(profile.advertisements)}::bigint[])`;
    return null;
  }
  if (role === 'Teacher') return `${base} AND c.teacher_id = ${p(profile.id)} AND c.class_id = ANY(${p(profile.classes)}::bigint[])`;
  if (role === 'Operator') return base;
  if (role === 'President' && profile.school !== null) return `${base} AND k.school = ${p(profile.school)}`;
  return null;
}

/**
 * The conversations of kind `kind` in `city` that `profile` sees, the most recent message first
 * (those without a message last, newest first), `limit` from `offset`; with the total.
 */
export async function listConversations(
  db: Queryable,
  profile: Profile,
  city: string,
  kind: 'shop' | 'class',
  page: { limit: number; offset: number },
): Promise<{ content: ChatConversation[]; total_length: number }> {
  const params: unknown[] = [profile.id, city];
  const where = listWhere(profile, kind, params);
  if (where === null) return { content: [], total_length: 0 };
  // The class is read only when the WHERE asks for its school (a President's list).
  const klass = where.includes('k.school') ? `LEFT JOIN LATERAL (SELECT (k.data->>'school')::bigint AS school FROM ${CLASS_TABLE} k WHERE c.kind = 'class' AND k.id = c.class_id) k ON true` : '';
  const count = `SELECT count(*)::int FROM chat_conversations c ${klass} WHERE $1::int IS NOT NULL AND ${where}`;
  const parts = conversationParts(kind);
  // The total rides on each row of the page (one statement: on PGlite's one connection a request
  // then waits in line once); a page past the end asks for it alone.
  const rows = await db.query(
    `SELECT ${parts.columns}, (${count}) AS total_length ${parts.from} WHERE ${where} ORDER BY c.last_message_at DESC NULLS LAST, c.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    params,
  );
  if (rows.length > 0) return { content: rows.map(toConversation), total_length: Number(rows[0].total_length) };
  const [{ n }] = page.offset === 0 ? [{ n: 0 }] : await db.query<{ n: number }>(`SELECT (${count}) AS n`, params);
  return { content: [], total_length: Number(n) };
}

/**
 * Conversation `id`'s key and a page of its messages, in one statement (on PGlite's one connection a
 * request then waits in line once): the messages route checks the key (chat-access.ts) before it
 * answers the page. A page goes backwards: the `limit` newest messages with an id below `before`
 * (all when null), answered oldest first, and the cursor of the page before it (null at the start).
 * Ids only grow, so a page is the same however many messages arrive meanwhile. Null when there is no
 * such conversation.
 */
export async function conversationWithPage(
  db: Queryable,
  id: number,
  before: number | null,
  limit = CHAT_PAGE_SIZE,
): Promise<{ key: ConversationKey; page: { content: ChatMessage[]; next_before: number | null } } | null> {
  const rows = await db.query(
    `SELECT c.id, c.city, c.kind, c.shop_id, c.class_id, c.teacher_id,
       (SELECT (k.data->>'school')::bigint FROM ${CLASS_TABLE} k WHERE c.kind = 'class' AND k.id = c.class_id) AS school_id,
       m.id AS m_id, m.sender_id AS m_sender_id, m.sender_name AS m_sender_name, m.side AS m_side, m.text AS m_text, m.image AS m_image, m.deleted AS m_deleted, m.created_at AS m_created_at
     FROM chat_conversations c
     LEFT JOIN LATERAL (${MESSAGE_SQL} WHERE m.conversation_id = c.id AND ($2::bigint IS NULL OR m.id < $2) ORDER BY m.id DESC LIMIT ${limit + 1}) m ON true
     WHERE c.id = $1 ORDER BY m.id DESC`,
    [id, before],
  );
  if (rows.length === 0) return null;
  const messages = rows.flatMap((r) => prefixedMessage(r) ?? []);
  return { key: toConversationKey(rows[0]), page: pageOf(messages, limit) };
}

/** The page of `newest` (newest first, up to `limit` + 1 to tell whether more come before): oldest first, with its cursor. */
function pageOf(newest: ChatMessage[], limit: number): { content: ChatMessage[]; next_before: number | null } {
  const page = newest.slice(0, limit).reverse();
  return { content: page, next_before: newest.length > limit && page.length > 0 ? page[0].id : null };
}

/**
 * Makes the missing conversations `profile` has a right to (an Advertiser's shops of the city, a
 * Teacher's classes), with their participants; an empty conversation then appears in its list.
 */
export async function ensureOwnConversations(db: Queryable, profile: Profile, city: string): Promise<void> {
  const role = effectiveRole(profile);
  let made: Array<{ id: number }> = [];
  if (role === 'Advertiser' && profile.advertisements.length > 0) {
    made = await db.query<{ id: number }>(
      `INSERT INTO chat_conversations (city, kind, shop_id) SELECT $1, 'shop', a.id FROM ${AD_TABLE} a WHERE a.city = $1 AND a.id = ANY($2::bigint[])
       ON CONFLICT (city, shop_id) WHERE kind = 'shop' DO NOTHING RETURNING id`,
      [city, profile.advertisements],
    );
  } else if (role === 'Teacher' && profile.classes.length > 0) {
    made = await db.query<{ id: number }>(
      `INSERT INTO chat_conversations (city, kind, class_id, teacher_id) SELECT $1, 'class', k.id, $3 FROM ${CLASS_TABLE} k WHERE k.city = $1 AND k.id = ANY($2::bigint[])
       ON CONFLICT (city, class_id, teacher_id) WHERE kind = 'class' DO NOTHING RETURNING id`,
      [city, profile.classes, profile.id],
    );
  }
  for (const { id } of made) await addParticipants(db, Number(id));
}

/**
 * Adds the participants of conversation `id`: for a shop, the Operators of its city and the
 * Advertisers owning the shop; for a class, its teacher. Kept ones stay.
 */
export async function addParticipants(db: Queryable, id: number): Promise<void> {
  await db.query(
    `INSERT INTO chat_participants (conversation_id, user_id, side)
     SELECT c.id, u.id, 'city' FROM chat_conversations c JOIN cities ci ON ci.name = c.city JOIN users u ON u.permission = 'Operator' AND ci.id = ANY(u.assign_city)
       WHERE c.id = $1 AND c.kind = 'shop'
     UNION ALL
     SELECT c.id, u.id, 'shop' FROM chat_conversations c JOIN users u ON u.permission = 'Advertiser' AND c.shop_id = ANY(u.advertisements)
       WHERE c.id = $1 AND c.kind = 'shop'
     UNION ALL
     SELECT c.id, c.teacher_id, 'teacher' FROM chat_conversations c WHERE c.id = $1 AND c.kind = 'class'
     ON CONFLICT DO NOTHING`,
    [id],
  );
}
