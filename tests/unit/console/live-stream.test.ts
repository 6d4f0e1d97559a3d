/**
 * The console's live streams (providers/live-stream.ts; server: routes/event-stream.ts): named
 * events reach their handlers parsed, a malformed one is skipped, and the caller is told to read
 * again when events may have been missed: the server's `resync`, and the browser's EventSource
 * opening again after a break (not its first opening). Node has no EventSource: a stand-in with the
 * browser's dispatching (addEventListener, open/close) plays the browser's part.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLiveStream } from '@/console/providers/live-stream';

class StandInEventSource extends EventTarget {
  static last: StandInEventSource | null = null;
  closed = false;
  constructor(readonly url: string) {
    super();
    StandInEventSource.last = this;
  }
  close() {
    this.closed = true;
  }
  /** What the browser does when the stream (re)opens. */
  open() {
    this.dispatchEvent(new Event('open'));
  }
  /** What the browser does for `event: <name>\ndata: <data>`. */
  emit(name: string, data: string) {
    this.dispatchEvent(new MessageEvent(name, { data }));
  }
}

describe('openLiveStream', () => {
  const original = (globalThis as { EventSource?: unknown }).EventSource;
  beforeEach(() => {
    (globalThis as { EventSource?: unknown }).EventSource = StandInEventSource;
  });
  afterEach(() => {
    (globalThis as { EventSource?: unknown }).EventSource = original;
  });

  it('hands each named event its parsed data and skips a malformed one', () => {
    const got: unknown[] = [];
    const close = openLiveStream('/kobe/api/notify-operator/stream', { notice: (d) => got.push(d) });
    const source = StandInEventSource.last!;
    expect(source.url).toBe('/kobe/api/notify-operator/stream');
    source.open();
    source.emit('notice', '{"id":3,"title":"お知らせ"}');
    source.emit('notice', '{not json');
    source.emit('other', '{"id":4}');
    expect(got).toEqual([{ id: 3, title: 'お知らせ' }]);
    close();
    expect(source.closed).toBe(true);
  });

  it('asks to read again on the server’s resync and on every opening after the first', () => {
    let resyncs = 0;
    openLiveStream('/kobe/api/notify-operator/stream', {}, () => resyncs++);
    const source = StandInEventSource.last!;
    source.open();
    expect(resyncs).toBe(0);
    source.emit('resync', '{}');
    expect(resyncs).toBe(1);
    // the server went away and the browser reconnected by itself
    source.open();
    expect(resyncs).toBe(2);
  });

  it('opens nothing where there is no EventSource', () => {
    (globalThis as { EventSource?: unknown }).EventSource = undefined;
    StandInEventSource.last = null;
    const close = openLiveStream('/x', {}, () => undefined);
    expect(StandInEventSource.last).toBeNull();
    expect(() => close()).not.toThrow();
  });
});
