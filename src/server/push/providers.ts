/**
 * Push providers (000 2.2 notification; 001 7.9: the spec's push service is Firebase Cloud
 * Messaging): the delivery job (./delivery.ts) hands them batches of messages, one per device token,
 * and gets one result per message.
 * - `outbox` (the default): records each message in `push_outbox` in the job's own transaction, so
 *   a developer and the tests see exactly what would have been sent, once.
 * - `fcm`: FCM HTTP v1 through the official `firebase-admin` library, when FCM_CREDENTIALS names a
 *   service-account file (read, and the library loaded, at the first send). Tokens FCM reports as
 *   unregistered or invalid come back `invalidToken` (the job deletes them); its transient errors
 *   come back `retry`.
 */
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';

/** One message to one device. */
export interface PushMessage {
  notificationId: number;
  userId: number;
  token: string;
  title: string;
  body: string;
  imageUrl?: string;
  /** Strings the app receives with the message (FCM `data`). */
  data: Record<string, string>;
}

/** What became of one message. */
export interface PushResult {
  ok: boolean;
  /** The provider's error code when not ok. */
  error?: string;
  /** A transient error: try again later. */
  retry?: boolean;
  /** The token is unknown to the provider or no longer valid: delete it. */
  invalidToken?: boolean;
}

/** A push provider. */
export interface PushProvider {
  readonly name: string;
  /** True when `send` writes in the transaction it is given (then a batch and its results commit together). */
  readonly transactional: boolean;
  /** Sends `messages` (at most 500); answers one result per message, in order. `tx` is the job's transaction when `transactional`. */
  send(messages: readonly PushMessage[], tx?: Queryable): Promise<PushResult[]>;
}

/** The outbox provider: one `push_outbox` row per message (a second send of one message to one token is ignored). */
export const outboxProvider: PushProvider = {
  name: 'outbox',
  transactional: true,
  async send(messages, tx) {
    if (!tx) throw new Error('the outbox provider writes in the job transaction');
    if (messages.length === 0) return [];
    await tx.query(
      `INSERT INTO push_outbox (notification_id, user_id, token, message)
       SELECT (m->>'notificationId')::bigint, (m->>'userId')::int, m->>'token', m - 'notificationId' - 'userId' - 'token'
       FROM jsonb_array_elements($1::jsonb) m ON CONFLICT (notification_id, user_id, token) DO NOTHING`,
      [JSON.stringify(messages)],
    );
    return messages.map(() => ({ ok: true }));
  },
};

/** The part of firebase-admin's `Messaging` the FCM provider uses (a fake one in tests). */
export interface MessagingClient {
  sendEach(
    messages: Array<{ token: string; notification: { title: string; body: string; imageUrl?: string }; data: Record<string, string> }>,
  ): Promise<{ responses: Array<{ success: boolean; error?: { code: string; message?: string } }> }>;
}

/** FCM error codes of a token that will never work again (firebase-admin `messaging/…`). */
const INVALID_TOKEN = new Set(['messaging/registration-token-not-registered', 'messaging/invalid-registration-token', 'messaging/invalid-recipient']);
/** FCM error codes worth another attempt later. */
const TRANSIENT = new Set(['messaging/internal-error', 'messaging/server-unavailable', 'messaging/unavailable', 'messaging/quota-exceeded', 'messaging/message-rate-exceeded', 'app/network-error', 'app/network-timeout']);

/** Maps one FCM send response to a result (see the top of this file). */
export function fcmResult(r: { success: boolean; error?: { code: string } }): PushResult {
  if (r.success) return { ok: true };
  const code = r.error?.code ?? 'unknown';
  return { ok: false, error: code, invalidToken: INVALID_TOKEN.has(code), retry: TRANSIENT.has(code) };
}

/**
 * The FCM HTTP v1 provider over `client` (firebase-admin's Messaging, or a fake). A failure of the
 * whole call (network, an unreadable credentials file) makes every message of the batch `retry`.
 */
export function fcmProvider(client: () => Promise<MessagingClient>): PushProvider {
  return {
    name: 'fcm',
    transactional: false,
    async send(messages) {
      if (messages.length === 0) return [];
      let answer: Awaited<ReturnType<MessagingClient['sendEach']>>;
      try {
        const messaging = await client();
        answer = await messaging.sendEach(
          messages.map((m) => ({ token: m.token, notification: { title: m.title, body: m.body, ...(m.imageUrl ? { imageUrl: m.imageUrl } : {}) }, data: m.data })),
        );
      } catch (e) {
        const code = (e as { code?: string }).code ?? 'unavailable';
        return messages.map(() => ({ ok: false, error: code, retry: true }));
      }
      return messages.map((_, i) => fcmResult(answer.responses[i] ?? { success: false, error: { code: 'unknown' } }));
    },
  };
}

/**
 * The firebase-admin Messaging of the service account in `file` (FCM_CREDENTIALS), made at the first
 * call and kept. Errors: an unreadable or invalid file (the batch is retried later).
 */
export function firebaseMessaging(file: string): () => Promise<MessagingClient> {
  let made: Promise<MessagingClient> | null = null;
  return () =>
    (made ??= (async () => {
      const account = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
      const { initializeApp, cert } = await import('firebase-admin/app');
      const { getMessaging } = await import('firebase-admin/messaging');
      const app = initializeApp({ credential: cert(account), projectId: account.project_id }, `push-${randomUUID()}`);
      return getMessaging(app) as unknown as MessagingClient;
    })().catch((e: unknown) => {
      made = null;
      throw e;
    }));
}

/** The provider the settings choose: FCM when `fcmCredentials` names a file, else the outbox. */
export function providerOf(fcmCredentials: string | undefined): PushProvider {
  return fcmCredentials ? fcmProvider(firebaseMessaging(fcmCredentials)) : outboxProvider;
}
