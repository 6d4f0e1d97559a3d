/**
 * Demo chat in kobe (README 'Demo accounts'): a conversation between the demo advertiser's first
 * shop (the seed gives it the first two demo shops of kobe, statistics/demo-data.ts) and the city,
 * over three days with a link and three messages the operators have not read yet (the badge shows 3),
 * and the demo teacher's class chat with a parent. Written once on a new database, after the demo
 * accounts are linked to their rows.
 */
import type { Database, Queryable } from '../db/database';
import { addParticipants } from './chat-repository';

const DAY_MS = 86_400_000;

interface DemoMessage {
  /** Days before now (may be fractional) and the time of day in Tokyo, `HH:mm`; null: minutes ago. */
  day: number;
  at: string | null;
  from: 'advertiser' | 'operator' | 'teacher' | { parent: string };
  text: string;
}

const SHOP_CHAT: DemoMessage[] = [
  { day: 3, at: '10:02', from: 'advertiser', text: 'お世話になっております。店舗の営業時間を変更したいのですが、どこから設定できますか？' },
  { day: 3, at: '10:15', from: 'operator', text: '店舗情報の「営業時間」から変更できます。手順は https://example.jp/help/business-hours をご覧ください。' },
  { day: 3, at: '10:21', from: 'advertiser', text: 'ありがとうございます。変更できました。' },
  { day: 1, at: '15:40', from: 'advertiser', text: '来月のクーポン掲載について相談させてください。' },
  { day: 0, at: null, from: 'advertiser', text: '店舗写真の差し替えもお願いできますか？' },
];

const CLASS_CHAT: DemoMessage[] = [
  { day: 2, at: '08:30', from: 'teacher', text: '明日の遠足は、雨天の場合は延期となります。' },
  { day: 2, at: '09:05', from: { parent: '山田 花子' }, text: '承知しました。お弁当は必要でしょうか？' },
  { day: 2, at: '09:12', from: 'teacher', text: 'はい、お弁当と水筒をお持たせください。' },
];

/** The instant of a demo message: that many days ago at that time of day in Tokyo (UTC+9), or minutes ago. */
function instant(now: number, m: DemoMessage, index: number): Date {
  if (m.at === null) return new Date(now - (30 - index) * 60_000);
  const [h, min] = m.at.split(':').map(Number);
  const tokyo = new Date(now + 9 * 3_600_000 - m.day * DAY_MS);
  return new Date(Date.UTC(tokyo.getUTCFullYear(), tokyo.getUTCMonth(), tokyo.getUTCDate(), h - 9, min));
}

async function write(tx: Queryable, conversationId: number, messages: DemoMessage[], users: Map<string, { id: number; name: string }>, now: number): Promise<void> {
  let last: { id: number; at: Date } | null = null;
  for (const [i, m] of messages.entries()) {
    const who = typeof m.from === 'string' ? users.get(m.from) : null;
    const side = typeof m.from !== 'string' ? 'parent' : m.from === 'operator' ? 'city' : m.from === 'advertiser' ? 'shop' : 'teacher';
    const name = typeof m.from === 'string' ? (who?.name ?? '') : m.from.parent;
    const at = instant(now, m, i);
    const [row] = await tx.query<{ id: number }>(
      'INSERT INTO chat_messages (conversation_id, sender_id, sender_name, side, text, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
      [conversationId, who?.id ?? null, name, side, m.text, at],
    );
    last = { id: Number(row.id), at };
  }
  if (!last) return;
  await tx.query('UPDATE chat_conversations SET last_message_id = $2, last_message_at = $3 WHERE id = $1', [conversationId, last.id, last.at]);
  // Everyone has read up to their own last message; what the others wrote after it is unread.
  await tx.query(
    `UPDATE chat_participants p SET
       last_read_id = COALESCE((SELECT max(id) FROM chat_messages WHERE conversation_id = p.conversation_id AND sender_id = p.user_id), 0),
       unread = (SELECT count(*) FROM chat_messages m WHERE m.conversation_id = p.conversation_id AND m.id > COALESCE((SELECT max(id) FROM chat_messages WHERE conversation_id = p.conversation_id AND sender_id = p.user_id), 0))
     WHERE p.conversation_id = $1`,
    [conversationId],
  );
}

/** Seeds the demo chat of kobe (nothing when the demo advertiser has no shop or the teacher no class). */
export async function seedDemoChat(db: Database, now = Date.now()): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx.query<{ username: string; id: number; name: string; advertisements: number[]; classes: number[] }>(
      "SELECT username, id, name, advertisements, classes FROM users WHERE username IN ('advertiser', 'operator', 'teacher')",
    );
    const users = new Map(rows.map((r) => [r.username, { id: Number(r.id), name: r.name }]));
    const shop = rows.find((r) => r.username === 'advertiser')?.advertisements[0];
    if (shop !== undefined && users.has('operator')) {
      const [conv] = await tx.query<{ id: number }>("INSERT INTO chat_conversations (city, kind, shop_id) VALUES ('kobe', 'shop', $1) RETURNING id", [shop]);
      await addParticipants(tx, Number(conv.id));
      await write(tx, Number(conv.id), SHOP_CHAT, users, now);
    }
    const teacher = rows.find((r) => r.username === 'teacher');
    const schoolClass = teacher?.classes[0];
    if (teacher && schoolClass !== undefined) {
      const [conv] = await tx.query<{ id: number }>("INSERT INTO chat_conversations (city, kind, class_id, teacher_id) VALUES ('kobe', 'class', $1, $2) RETURNING id", [
        schoolClass,
        teacher.id,
      ]);
      await addParticipants(tx, Number(conv.id));
      await write(tx, Number(conv.id), CLASS_CHAT, users, now);
    }
    // The city side's badge is the total of its unread counts.
    await tx.query(
      "UPDATE users u SET chat_admin_unread = (SELECT COALESCE(sum(unread), 0) FROM chat_participants p WHERE p.user_id = u.id AND p.side = 'city') WHERE u.permission = 'Operator'",
    );
  });
}
