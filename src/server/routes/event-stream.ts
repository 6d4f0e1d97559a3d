/**
 * Server-sent event streams of the live routes (the notice stream, the user's own events): the
 * caller authorizes first, then `serveEventStream` subscribes, and only once the subscription is
 * active answers 200 `text/event-stream` with a `: connected` comment, so an event published after
 * that comment arrives. A `: ping` comment every PING_MS keeps proxies from closing an idle stream.
 * Open streams are ended when the server closes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Interval of the keep-alive comment (ms). */
export const PING_MS = 25_000;

/** Writes one event: `event: <name>` and `data: <JSON>`. */
export type SendEvent = (event: string, data: unknown) => void;

const openStreams = new WeakMap<FastifyInstance, Set<{ end(): void }>>();

function streamsOf(app: FastifyInstance): Set<{ end(): void }> {
  let set = openStreams.get(app);
  if (!set) {
    const streams = new Set<{ end(): void }>();
    set = streams;
    openStreams.set(app, streams);
    // Open streams would keep the server from closing.
    app.addHook('preClose', async () => {
      for (const res of streams) res.end();
    });
  }
  return set;
}

/**
 * Registers the closing of open streams on `app`; call it while registering a stream route (hooks
 * cannot be added once the app is ready).
 */
export function prepareEventStreams(app: FastifyInstance): void {
  streamsOf(app);
}

/**
 * Answers `request` with an event stream fed by `subscribe` (which resolves, once listening, to its
 * unsubscribe function, called when the client goes away). Errors of `subscribe` reach Fastify's
 * error handler (nothing is written yet).
 */
export async function serveEventStream(request: FastifyRequest, reply: FastifyReply, subscribe: (send: SendEvent) => Promise<() => void>): Promise<void> {
  const res = reply.raw;
  const stop = await subscribe((event, data) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  });
  reply.hijack();
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.write(': connected\n\n');
  const open = streamsOf(request.server);
  open.add(res);
  const ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(ping);
    stop();
    open.delete(res);
  };
  request.raw.on('close', end);
  res.on('close', end);
  if (request.raw.destroyed) end();
}
