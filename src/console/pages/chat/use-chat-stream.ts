/**
 * The city's live chat events while a chat page is open (server: src/server/chat/chat-stream.ts):
 * `message` and `deleted`, each the message. The browser's EventSource reconnects by itself and
 * sends the last event id it saw, so the server resumes without a loss or a repeat; no resync
 * reading is needed.
 */
import { useEffect, useRef } from 'react';
import { openLiveStream } from '../../providers/live-stream';
import { chatStreamPath, type ChatMessage } from './chat-api';

/** Calls `onEvent(kind, message)` for each chat event of `city` while mounted. */
export function useChatStream(city: string, onEvent: (kind: 'message' | 'deleted', message: ChatMessage) => void): void {
  const handler = useRef(onEvent);
  // eslint-disable-next-line react-hooks/refs -- the latest value kept for callbacks that run after render; the React Compiler leaves this function as written
  handler.current = onEvent;
  useEffect(() => {
    if (!city) return;
    return openLiveStream(chatStreamPath(city), {
      message: (data) => handler.current('message', data as ChatMessage),
      deleted: (data) => handler.current('deleted', data as ChatMessage),
    });
  }, [city]);
}
