/** Reading server-sent event streams in server tests. */

/** Reads `body` until `until` matches the text read so far (or the stream ends); answers that text. */
export async function readUntil(body: ReadableStream<Uint8Array>, until: RegExp): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

/** The `data` of every event named `event` in `text`, parsed. */
export function eventsOf<T>(text: string, event: string): T[] {
  return [...text.matchAll(new RegExp(`event: ${event}\\ndata: (.*)\\n`, 'g'))].map((m) => JSON.parse(m[1]) as T);
}
