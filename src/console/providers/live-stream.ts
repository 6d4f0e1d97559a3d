/**
 * One live server-sent event stream of the console (the bell's admin notices, the chat unread
 * count; server: src/server/routes/event-stream.ts), with nothing lost while it was away:
 * - each named event's `data` is parsed as JSON and handed to its handler (a malformed one is skipped);
 * - `onResync` is called when what the stream pushes may have been missed: when the browser's
 *   EventSource opens again after a break (a restarted server, a network loss; it reconnects by
 *   itself), and on the server's `resync` event (its database listener was down for a while). The
 *   caller reads again what it shows.
 */

/** Handlers of named events: `data` parsed from JSON. */
export type LiveHandlers = Record<string, (data: unknown) => void>;

/**
 * Opens the stream at `url` (same origin; the session cookies go with it) and answers the function
 * that closes it. A stream that sends its state at each opening (the chat count) needs no `onResync`. Without EventSource (tests, old browsers) nothing is opened and the closer does
 * nothing.
 */
export function openLiveStream(url: string, handlers: LiveHandlers, onResync: () => void = () => undefined): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  const source = new EventSource(url);
  for (const [event, handle] of Object.entries(handlers)) {
    source.addEventListener(event, (ev) => {
      let data: unknown;
      try {
        data = JSON.parse((ev as MessageEvent<string>).data);
      } catch {
        return; // a malformed event is skipped
      }
      handle(data);
    });
  }
  source.addEventListener('resync', () => onResync());
  let opened = false;
  source.addEventListener('open', () => {
    if (opened) onResync();
    opened = true;
  });
  return () => source.close();
}
