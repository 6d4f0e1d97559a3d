/**
 * The chat calls (paths ours: the spec's chat lived in a cloud document store, 001 7.9 and 7.12 show
 * no path; docs/architecture.md 'Chat'), each through `authorize` on the subject `chat`
 * (src/shared/pages.ts: read by Administrators, Operators, Advertisers, Teachers and Presidents; sent
 * by Operators, Advertisers and Teachers; deleted by Operators, 000 6 Specifics) and then the
 * conversation's own check (chat-access.ts: a conversation the caller takes no part in answers 404):
 * - GET    /{city}/api/chat/conversations/?kind=shop|class → {content, total_length}
 * - GET    /{city}/api/chat/conversations/{id}/ → the conversation
 * - GET    /{city}/api/chat/conversations/{id}/messages/?before= → {content (oldest first), next_before}
 * - POST   /{city}/api/chat/conversations/{id}/messages/ {text?, image?} → 201 the message
 *   (400 empty or over 2,000 characters, or an image not uploaded by the sender in the city; 403 a
 *   reader; 429 over CHAT_RATE_LIMIT a minute, with Retry-After and a message saying when)
 * - POST   /{city}/api/chat/conversations/{id}/read → {unread: 0, chat_admin_unread}
 * - DELETE /{city}/api/chat/conversations/{id}/messages/{messageId}/ → the message, flagged deleted
 * - GET    /{city}/api/chat/stream (chat-stream.ts)
 * A refusal (403) says the catalogue's cloud-service refusal in this service's words (001 8
 * 'Firebase利用権限がありません。' → `live.chat.refused`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Action } from '../../shared/registry';
import type { Authorized } from '../auth/authorize';
import { HttpError } from '../http-error';
import { throwIfInvalid } from '../plugins/validation';
import { chatAccess, type ChatSide } from './chat-access';
import { authorizeChat, chatText as t } from './chat-authorize';
import { CHAT_PAGE_SIZE, type ChatConversation, type ConversationKey } from '../../shared/chat';
import { conversationWithPage, ensureOwnConversations, findConversation, listConversations } from './chat-repository';
import { CHAT_SCHEMAS as S } from './chat-schemas';
import { ReadCache } from '../db/read-cache';
import { registerChatStream } from './chat-stream';
import { ChatRateLimited, deleteMessage, markRead, sendMessage } from './chat-writes';

const BASE = '/:city/api/chat/conversations/';

interface Opened {
  auth: Authorized;
  conv: ChatConversation;
  access: 'write' | 'read';
  side: ChatSide | null;
}

/** Registers the chat calls and the chat stream. */
export function registerChatRoutes(app: FastifyInstance): void {
  const lists = new ReadCache<Awaited<ReturnType<typeof listConversations>>>(app.db);
  const pages = new ReadCache<Awaited<ReturnType<typeof conversationWithPage>>>(app.db);
  /** What `auth`'s caller may do in `conv` (of the path's city): 404 unless it takes part (or reads the class history), 403 a reader asked to write. */
  function check(request: FastifyRequest, auth: Authorized, conv: ConversationKey | null, need: 'write' | 'read'): Pick<Opened, 'access' | 'side'> {
    if (!conv || conv.city !== auth.city.name) throw new HttpError('not_found');
    const { access, side } = chatAccess(auth.profile, conv);
    if (access === null || access === 'list') throw new HttpError('not_found');
    if (need === 'write' && access !== 'write') throw new HttpError('forbidden', { detail: t(request, 'live.chat.refused') });
    return { access, side };
  }

  /** The conversation of the path for a caller that may `action` on chat, checked by `check`. */
  async function open(request: FastifyRequest, action: Action, need: 'write' | 'read'): Promise<Opened> {
    const auth = await authorizeChat(request, action);
    throwIfInvalid(request);
    const { id } = request.params as { id: number };
    const conv = await findConversation(app.db, Number(id), auth.profile.id);
    const { access, side } = check(request, auth, conv, need);
    return { auth, conv: conv!, access, side };
  }

  app.get(BASE, { schema: S.list }, async (request) => {
    const { profile, city } = await authorizeChat(request, 'read');
    throwIfInvalid(request);
    const q = request.query as { kind?: 'shop' | 'class'; limit?: number; offset?: number; class_id?: number; teacher_id?: number };
    const kind = q.kind ?? (profile.permission === 'Teacher' || profile.permission === 'President' ? 'class' : 'shop');
    await ensureOwnConversations(app.db, profile, city.name);
    const page = { limit: q.limit ?? CHAT_PAGE_SIZE, offset: q.offset ?? 0 };
    // Every open console of the city reads its list again after each message: the answer is kept
    // until the next write (PGlite), per caller and what decides its rows (listWhere).
    const key = JSON.stringify([profile.id, profile.permission, profile.is_captain_department, profile.advertisements, profile.classes, profile.school, city.name, kind, page]);
    const answer = await lists.get(key, () => listConversations(app.db, profile, city.name, kind, page));
    let content = answer.content.map((c) => ({ ...c, access: chatAccess(profile, c).access ?? 'list' }));
    if (q.class_id !== undefined) content = content.filter((c) => c.class_id === Number(q.class_id));
    if (q.teacher_id !== undefined) content = content.filter((c) => c.teacher_id === Number(q.teacher_id));
    return { content, total_length: q.class_id !== undefined || q.teacher_id !== undefined ? content.length : answer.total_length };
  });

  app.get(`${BASE}:id/`, { schema: S.show }, async (request) => {
    const { conv, access } = await open(request, 'read', 'read');
    return { ...conv, access };
  });

  app.get(`${BASE}:id/messages/`, { schema: S.messages }, async (request) => {
    const auth = await authorizeChat(request, 'read');
    throwIfInvalid(request);
    const { id } = request.params as { id: number };
    const { before } = request.query as { before?: number };
    // The same for every reader: kept until the next write like the lists; the key is checked below.
    const found = await pages.get(JSON.stringify([Number(id), before ?? null]), () => conversationWithPage(app.db, Number(id), before ?? null));
    check(request, auth, found?.key ?? null, 'read');
    return found!.page;
  });

  app.post(`${BASE}:id/messages/`, { schema: S.send }, async (request, reply) => {
    const { auth, conv, side } = await open(request, 'create', 'write');
    const body = (request.body ?? {}) as { text?: string; image?: string };
    const text = body.text ?? '';
    let imageFileId: number | null = null;
    if (body.image) {
      const [file] = await app.db.query<{ id: number }>("SELECT id FROM files WHERE name = $1 AND city = $2 AND kind = 'image' AND user_id = $3", [
        body.image,
        auth.city.name,
        auth.profile.id,
      ]);
      if (!file) throw new HttpError('validation', { fieldErrors: { image: [{ key: 'live.chat.image', params: { field: 'image' } }] } });
      imageFileId = Number(file.id);
    }
    if (text.trim() === '' && imageFileId === null) throw new HttpError('validation', { fieldErrors: { text: [{ key: 'live.chat.empty', params: { field: 'text' } }] } });
    try {
      const message = await sendMessage(app.db, {
        city: auth.city.name,
        conversationId: conv.id,
        sender: { id: auth.profile.id, name: auth.profile.name || auth.profile.username, side: side! },
        text,
        imageFileId,
        rateLimit: app.config.chatRateLimit,
      });
      return reply.code(201).send(message);
    } catch (err) {
      if (!(err instanceof ChatRateLimited)) throw err;
      throw new HttpError('rate_limited', {
        detail: t(request, 'live.chat.rateLimited', { max: app.config.chatRateLimit, seconds: err.retryAfter }),
        headers: { 'retry-after': String(err.retryAfter) },
      });
    }
  });

  app.post(`${BASE}:id/read`, { schema: S.read }, async (request) => {
    const { auth, conv, side } = await open(request, 'read', 'write');
    return markRead(app.db, conv.id, auth.profile.id, side!);
  });

  app.delete(`${BASE}:id/messages/:messageId/`, { schema: S.delete }, async (request) => {
    const { auth, conv } = await open(request, 'delete', 'read');
    const { messageId } = request.params as { messageId: number };
    const message = await deleteMessage(app.db, auth.city.name, conv.id, Number(messageId));
    if (!message) throw new HttpError('not_found');
    return message;
  });

  registerChatStream(app);
}
