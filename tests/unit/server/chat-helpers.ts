/** Helpers of the chat tests (src/server/chat/): the calls, the demo conversation. */
import type { FastifyInstance } from 'fastify';
import { bearer, type Session } from './helpers';

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
