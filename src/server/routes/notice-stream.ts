/**
 * The live operator notices (000 6 'Operator gets live admin-notice updates'; 001 7.9 'a live-data
 * service is subscribed for the collection of operator notices'), as server-sent events:
 *
 * - GET /:city/api/notify-operator/stream → 200 text/event-stream; one `notice` event per
 *   notify_operator row created in that city from then on, `data` = the row as JSON
 *   ({id, title, description, operator, read, created_at, …}); a `: ping` comment every 25 s keeps
 *   proxies from closing an idle stream. Whoever may read notify_operator in the city may listen
 *   (the one `authorize` check: 401, 403, unknown city 404). No polling: the events come from the
 *   create itself (events/record-events.ts), in this process only.
 */
import type { FastifyInstance } from 'fastify';
import { authorize } from '../auth/authorize';
import { storageCity } from '../db/resource-tables';
import { onRecordCreated } from '../events/record-events';

/** The stream's path and the resource it follows. */
export const NOTICE_STREAM_PATH = '/:city/api/notify-operator/stream';
const RESOURCE = 'notify_operator';
/** Interval of the keep-alive comment (ms). */
export const PING_MS = 25_000;

/** Registers the stream route. */
export function registerNoticeStream(app: FastifyInstance): void {
  const open = new Set<{ end(): void }>();
  // Open streams would keep the server from closing.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });
  app.get(NOTICE_STREAM_PATH, async (request, reply) => {
    const { city } = await authorize(request, 'read', RESOURCE);
    const def = app.resources.get(RESOURCE);
    if (!def) return reply.code(404).send({ detail: 'not found', code: 'not_found' });
    const key = storageCity(def, city.name);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(': connected\n\n');
    open.add(res);
    const stop = onRecordCreated(app.db, (e) => {
      if (e.resource === RESOURCE && e.city === key) res.write(`event: notice\ndata: ${JSON.stringify(e.row)}\n\n`);
    });
    const ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
    const end = () => {
      clearInterval(ping);
      stop();
      open.delete(res);
    };
    request.raw.on('close', end);
    res.on('close', end);
  });
}
