/** Helpers of the chat tests (src/server/chat/): a real PNG, the calls, the demo conversation. */
import { crc32, deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { bearer, type Session } from './helpers';

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** A real PNG (8-bit RGB) of width × height pixels. */
export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((1 + width * 3) * height, 0x7f);
  for (let y = 0; y < height; y += 1) raw[y * (1 + width * 3)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

export interface Conversation {
  id: number;
  kind: string;
  shop_id: number | null;
  class_id: number | null;
  teacher_id: number | null;
  shop_name: string | null;
  unread: number;
  access: string;
  last_message: Message | null;
}
export interface Message {
  id: number;
  conversation_id: number;
  text: string;
  image_url: string | null;
  deleted: boolean;
  sender_name: string;
  side: string;
}

/** The calls of the chat for one session. */
export function chatCalls(app: FastifyInstance, session: Session, city = 'kobe') {
  const headers = bearer(session);
  const base = `/${city}/api/chat/conversations/`;
  return {
    list: (query = '') => app.inject({ method: 'GET', url: `${base}${query}`, headers }),
    show: (id: number) => app.inject({ method: 'GET', url: `${base}${id}/`, headers }),
    page: (id: number, before?: number) => app.inject({ method: 'GET', url: `${base}${id}/messages/${before ? `?before=${before}` : ''}`, headers }),
    send: (id: number, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: `${base}${id}/messages/`, headers, payload }),
    read: (id: number) => app.inject({ method: 'POST', url: `${base}${id}/read`, headers }),
    remove: (id: number, messageId: number) => app.inject({ method: 'DELETE', url: `${base}${id}/messages/${messageId}/`, headers }),
    upload: (bytes: Buffer) => app.inject({ method: 'POST', url: `/${city}/api/files/?kind=image&name=a.png`, headers: { ...headers, 'content-type': 'image/png' }, payload: bytes }),
  };
}

/** The badge of a session's user (GET /default/api/users/account → chat_admin_unread). */
export async function badge(app: FastifyInstance, session: Session): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/default/api/users/account', headers: bearer(session) });
  return Number((res.json() as { chat_admin_unread?: number }).chat_admin_unread ?? 0);
}
