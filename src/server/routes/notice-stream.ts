/**
 * The live operator notices (000 6 'Operator gets live admin-notice updates'; 001 7.9 'a live-data
 * service is subscribed for the collection of operator notices'), as server-sent events:
 *
 * - GET /:city/api/notify-operator/stream → 200 text/event-stream; one `notice` event per
 *   notify_operator row created in that city from then on, `data` = the row as JSON
 *   ({id, title, description, operator, read, created_at, …}); `: ping` comments keep it open
 *   (event-stream.ts). Whoever may read notify_operator in the city may listen (the one `authorize`
 *   check: 401, 403, unknown city 404). No polling: the events come from the create itself, through
 *   PostgreSQL NOTIFY, so a notice created by any server process on the database reaches the streams
 *   of every process (events/record-events.ts; one LISTEN connection per process, not per stream).
 *   A bulk create sends one event per row. After a loss of the process's LISTEN connection, once it
 *   is back, a `resync` event `{}` says that notices may have been missed: the client reads its
 *   counts again (event-stream.ts).
 */
import type { FastifyInstance } from 'fastify';
import { authorize } from '../auth/authorize';
import { storageCity } from '../db/resource-tables';
import { onRecordCreated } from '../events/record-events';
import { pathParams } from '../openapi/call-schemas';
import { answer, errorAnswers } from '../openapi/components';
import { throwIfInvalid } from '../plugins/validation';
import { prepareEventStreams, serveEventStream } from './event-stream';

export { PING_MS } from './event-stream';

/** The stream's path and the resource it follows. */
export const NOTICE_STREAM_PATH = '/:city/api/notify-operator/stream';
const RESOURCE = 'notify_operator';

/** Registers the stream route. */
export function registerNoticeStream(app: FastifyInstance): void {
  prepareEventStreams(app);
  const schema = {
    operationId: 'notify_operator_stream',
    tags: ['live'],
    summary: 'Admin notices created in the city as server-sent events `notice` (the row), `resync` after a lost connection (path ours)',
    params: pathParams('/{city}/'),
    response: { '200': answer('Event stream', { type: 'string' }, 'text/event-stream'), ...errorAnswers(401, 403, 404) },
  };
  app.get(NOTICE_STREAM_PATH, { schema }, async (request, reply) => {
    const { city } = await authorize(request, 'read', RESOURCE);
    throwIfInvalid(request);
    const def = app.resources.get(RESOURCE);
    if (!def) return reply.code(404).send({ detail: 'not found', code: 'not_found' });
    const key = storageCity(def, city.name);
    await serveEventStream(request, reply, (send) =>
      onRecordCreated(app.db, def, (e) => {
        if (e.city === key) send('notice', e.row);
      }),
    );
  });
}
