/**
 * The chat unread count (000 2.3 'the chat item shows an unread badge, capped at 99 (99+)'; 001 7.9
 * 'Unread chat counts come from the field chatAdminUnread on the user's document in a cloud document
 * store; no HTTP call'): this server is that store (repositories/chat-unread-repository.ts). The
 * count reaches the console in the account info (GET /default/api/users/account → `chat_admin_unread`)
 * and live on the user's stream. Calls (ours), each through the one `authorize` check on the subject
 * `chat_unread` (Administrator and Operator: the roles with the chat entry, 000 6 Specifics):
 * - PUT /default/api/users/chat-unread/ {username, count} → 200 {username, count}: the chat service
 *   (a later issue) sets a user's count, an integer 0…2147483647 (body checked by BODY_SCHEMA).
 *   The user must have the chat entry (Administrator or Operator, else 400 on `username`); an
 *   Operator may set its own count and those of Operators sharing one of its cities (an
 *   Administrator's: 403; another Operator's: 404), an Administrator anyone's. Unknown user: 404.
 * - GET /default/api/users/chat-unread/stream → 200 text/event-stream: a `chat-unread` event
 *   `{count}` with the caller's own count at the opening (a reconnecting client misses nothing), each
 *   time it is set, by any server process (events/user-events.ts), and after a restoration of the
 *   LISTEN connection (event-stream.ts).
 * Errors: 400 `validation`, 401, 403, 404, as `{detail, code, fields?}`.
 */
import type { FastifyInstance } from 'fastify';
import { effectiveRole } from '../../shared/roles';
import { authorize } from '../auth/authorize';
import { onUserEvent } from '../events/user-events';
import { HttpError } from '../http-error';
import { answer, errorAnswers } from '../openapi/components';
import { throwIfInvalid } from '../plugins/validation';
import { CHAT_UNREAD_EVENT, chatUnreadOf, setChatUnread } from '../repositories/chat-unread-repository';
import { findUserBy } from '../repositories/user-repository';
import { prepareEventStreams, serveEventStream } from '../routes/event-stream';

export const CHAT_UNREAD_PATH = '/default/api/users/chat-unread/';
export const CHAT_UNREAD_STREAM_PATH = '/default/api/users/chat-unread/stream';
const SUBJECT = 'chat_unread';
/** The permissions whose users have the chat entry (000 6 Specifics). */
const CHAT_PERMISSIONS = ['Administrator', 'Operator'];

/** The body of the PUT: a username and a count (integer ≥ 0 that fits the column). */
export const BODY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'count'],
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 150 },
    count: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
  },
} as const;

const TAGS = ['users'];

/** Registers the chat unread calls. */
export function registerChatUnreadRoutes(app: FastifyInstance): void {
  prepareEventStreams(app);

  app.put(
    CHAT_UNREAD_PATH,
    {
      schema: {
        operationId: 'users_chat_unread_set',
        tags: TAGS,
        summary: "Set a user's chat unread count (path ours; the chat service writes it)",
        body: BODY_SCHEMA,
        response: { '200': answer('Stored', BODY_SCHEMA), ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { profile } = await authorize(request, 'update', SUBJECT, { city: null });
      throwIfInvalid(request);
      const body = request.body as { username: string; count: number };
      const target = await findUserBy(app.db, { username: body.username });
      if (!target || target.username !== body.username) throw new HttpError('not_found');
      if (!CHAT_PERMISSIONS.includes(target.permission)) {
        throw new HttpError('validation', { fieldErrors: { username: [{ key: 'live.chatUnread.noChatEntry', params: { field: 'username' } }] } });
      }
      if (effectiveRole(profile) !== 'Administrator' && target.id !== profile.id) {
        if (target.permission === 'Administrator') throw new HttpError('forbidden');
        const mine = new Set(profile.assign_city.map((c) => c.id));
        if (!target.assign_city.some((id) => mine.has(id))) throw new HttpError('not_found');
      }
      if (!(await setChatUnread(app.db, target.id, body.count))) throw new HttpError('not_found');
      return { username: target.username, count: body.count };
    },
  );

  app.get(
    CHAT_UNREAD_STREAM_PATH,
    {
      schema: {
        operationId: 'users_chat_unread_stream',
        tags: ['live'],
        summary: "The caller's chat unread count as server-sent events `chat-unread` {count}: at the opening and at each change (path ours)",
        response: { '200': answer('Event stream', { type: 'string' }, 'text/event-stream'), ...errorAnswers(401, 403) },
      },
    },
    async (request, reply) => {
      const { profile } = await authorize(request, 'read', SUBJECT, { city: null });
      await serveEventStream(
        request,
        reply,
        (send) =>
          onUserEvent(app.db, profile.id, (event, data) => {
            if (event === CHAT_UNREAD_EVENT) send(CHAT_UNREAD_EVENT, { count: Number(data.count ?? 0) });
          }),
        { sendState: async (send) => send(CHAT_UNREAD_EVENT, { count: await chatUnreadOf(app.db, profile.id) }) },
      );
    },
  );
}
