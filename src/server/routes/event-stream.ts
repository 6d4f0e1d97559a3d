/**
 * Server-sent event streams of the live routes (the notice stream, the user's own events): the
 * caller authorizes first, then `serveEventStream` subscribes, and only once the subscription is
 * active answers 200 `text/event-stream` with a `: connected` comment, so an event published after
 * that comment arrives. A `: ping` comment every PING_MS keeps proxies from closing an idle stream.
 * Open streams are ended when the server closes.
 *
 * Nothing is lost when the process's LISTEN connection was down for a while (PostgreSQL only,
 * `Database.onListenRestored`): once it is back, every open stream sends its current state (the
 * route's `sendState`) or, without one, a `resync` event (data `{}`) that tells the client to read
 * again what it shows.
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

export interface EventStreamOptions {
  /**
   * Sends the stream's current state (say, a count read from the database) with `send`: right after
   * `: connected` and after each restoration of the LISTEN connection (in place of `resync`). Events
   * published meanwhile are written after it, in order. A rejection is logged; the stream goes on.
   */
  sendState?: (send: SendEvent) => Promise<void>;
}

/**
 * Answers `request` with an event stream fed by `subscribe` (which resolves, once listening, to its
 * unsubscribe function, called when the client goes away). Errors of `subscribe` reach Fastify's
 * error handler (nothing is written yet).
 */
export async function serveEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  subscribe: (send: SendEvent) => Promise<() => void>,
  options: EventStreamOptions = {},
): Promise<void> {
  const res = reply.raw;
  let ended = false;
  const write: SendEvent = (event, data) => {
    if (!ended) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  // Every write goes through one chain, so that events published while the state is read follow it.
  let chain: Promise<void> = Promise.resolve();
  const send: SendEvent = (event, data) => {
    chain = chain.then(() => write(event, data));
  };
  const { sendState } = options;
  const resync = () => {
    chain = chain.then(() =>
      sendState
        ? sendState(write).catch((err: Error) => request.log.error({ err }, 'event stream: reading the state failed'))
        : write('resync', {}),
    );
  };
  const stop = await subscribe(send);
  reply.hijack();
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.write(': connected\n\n');
  if (sendState) resync();
  const unwatch = request.server.db.onListenRestored(resync);
  const open = streamsOf(request.server);
  open.add(res);
  const ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(ping);
    stop();
    unwatch();
    open.delete(res);
  };
  request.raw.on('close', end);
  res.on('close', end);
  if (request.raw.destroyed) end();
}
