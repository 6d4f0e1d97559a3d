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
 *
 * A resumable stream (the chat, `lastEventId`) numbers its events: `id: <n>` lines, n increasing,
 * an event at or below the last written id is dropped (a catch-up read and a live event may both
 * carry it), and an `id: <start>` line right after `: connected` sets the browser's Last-Event-ID
 * before any event, so its automatic reconnection resumes where this stream started.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Interval of the keep-alive comment (ms). */
export const PING_MS = 25_000;

/** Writes one event: `event: <name>`, `data: <JSON>` and, for a resumable stream, `id: <id>` (dropped when not above the last id written). */
export type SendEvent = (event: string, data: unknown, id?: number) => void;

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
  sendState?: (send: SendEvent, lastId: () => number) => Promise<void>;
  /** Makes the stream resumable from this event id (see above); `lastId()` of `sendState` answers the last id written. */
  lastEventId?: number;
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
  let lastId = options.lastEventId ?? 0;
  const write: SendEvent = (event, data, id) => {
    if (ended) return;
    if (id !== undefined) {
      if (id <= lastId) return;
      lastId = id;
    }
    res.write(`${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const { sendState } = options;
  const state = () => (sendState ? sendState(write, () => lastId).catch((err: Error) => request.log.error({ err }, 'event stream: reading the state failed')) : write('resync', {}));
  // Every write goes through one chain, so that events published while the state is read follow it;
  // the first state goes first, before any event published once the subscription is active.
  let opened!: () => void;
  let chain: Promise<void> = new Promise<void>((resolve) => (opened = resolve)).then(() => (sendState ? state() : undefined));
  const send: SendEvent = (event, data, id) => {
    chain = chain.then(() => write(event, data, id));
  };
  const resync = () => {
    chain = chain.then(state);
  };
  const stop = await subscribe(send);
  reply.hijack();
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.write(options.lastEventId !== undefined ? `: connected\nid: ${options.lastEventId}\n\n` : ': connected\n\n');
  opened();
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
