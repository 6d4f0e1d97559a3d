/**
 * The authorization of the chat calls (chat-routes.ts, chat-stream.ts): `authorize` on the
 * hand-written subject `chat` (src/shared/pages.ts), with a refusal worded as the chat's (001 8: the
 * cloud-service refusal 'Firebase利用権限がありません。' becomes `live.chat.refused`).
 */
import type { FastifyRequest } from 'fastify';
import type { Action } from '../../shared/registry';
import { authorize, type Authorized } from '../auth/authorize';
import { HttpError } from '../http-error';
import { translatorFor } from '../translator';

/** The hand-written subject of the chat calls (src/shared/pages.ts HAND_WRITTEN_SUBJECTS). */
export const CHAT_SUBJECT = 'chat';

/** The text of `key` in the request's language. */
export function chatText(request: FastifyRequest, key: string, params: Record<string, unknown> = {}): string {
  return translatorFor(request.headers['accept-language'])(key, params);
}

/** `authorize(request, action, 'chat')`; a 403 carries the chat's refusal. Errors: 401, 403, 404 (city). */
export async function authorizeChat(request: FastifyRequest, action: Action): Promise<Authorized> {
  try {
    return await authorize(request, action, CHAT_SUBJECT);
  } catch (err) {
    if (err instanceof HttpError && err.code === 'forbidden') throw new HttpError('forbidden', { detail: chatText(request, 'live.chat.refused') });
    throw err;
  }
}
