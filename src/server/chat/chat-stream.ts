/**
 * The chat's live stream (docs/architecture.md 'Chat'; routes/event-stream.ts):
 * GET /{city}/api/chat/stream → 200 text/event-stream of the chat events of the city the caller may
 * see (chat-access.ts): `message` and `deleted`, data the message (with its `conversation_id`), each
 * with `id: <event id>`. It starts after the `Last-Event-ID` header or `last_event_id` (the browser's
 * EventSource sends the header when it reconnects by itself), else at the city's last event; it
 * first writes what came since (a catch-up read), then what is committed from then on, by any
 * process: nothing lost, nothing twice. After the process's LISTEN connection was lost and is back,
 * the same catch-up read runs again.
 */
import type { FastifyInstance } from 'fastify';
import { throwIfInvalid } from '../plugins/validation';
import { prepareEventStreams, serveEventStream } from '../routes/event-stream';
import { chatAccess } from './chat-access';
import { lastChatEventId, onChatEvent, readChatEvents, type ChatEvent } from './chat-events';
import { authorizeChat } from './chat-authorize';
import { CHAT_SCHEMAS } from './chat-schemas';

/** Events read per catch-up query; a catch-up reads at most CATCH_UP_PAGES of them. */
const CATCH_UP_BATCH = 500;
const CATCH_UP_PAGES = 40;

/** Registers the stream route. */
export function registerChatStream(app: FastifyInstance): void {
  prepareEventStreams(app);
  app.get('/:city/api/chat/stream', { schema: CHAT_SCHEMAS.stream }, async (request, reply) => {
    const { profile, city } = await authorizeChat(request, 'read');
    throwIfInvalid(request);
    const header = Number(request.headers['last-event-id']);
    const query = (request.query as { last_event_id?: number }).last_event_id;
    const given = Number.isSafeInteger(header) && header >= 0 ? header : query;
    const start = given ?? (await lastChatEventId(app.db, city.name));
    const visible = (e: ChatEvent) => e.conversation.city === city.name && chatAccess(profile, e.conversation).access !== null;
    await serveEventStream(
      request,
      reply,
      (send) =>
        onChatEvent(app.db, (e) => {
          if (visible(e)) send(e.kind, e.message, e.id);
        }),
      {
        lastEventId: start,
        sendState: async (send, lastId) => {
          let cursor = lastId();
          for (let page = 0; page < CATCH_UP_PAGES; page++) {
            const events = await readChatEvents(app.db, city.name, cursor, CATCH_UP_BATCH);
            for (const e of events) if (visible(e)) send(e.kind, e.message, e.id);
            if (events.length < CATCH_UP_BATCH) break;
            cursor = events[events.length - 1].id;
          }
        },
      },
    );
  });
}
