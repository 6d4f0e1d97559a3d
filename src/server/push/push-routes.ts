/**
 * Push calls (000 2.2 notification, device; 001 7.9), besides the notification's generic create,
 * update and actions (whose writes ./push-hooks.ts follows). All paths are ours:
 * - POST /:city/api/notification/recipient-count/ body = a notification body (validated as a
 *   create; its `type` decides the mode; `title` and `body` may be left out, as a form asks for the
 *   count before they are typed) → 200 {count}: how many users the push would reach now.
 *   Same permission as creating a notification. 400 with field errors for bad targeting.
 * - GET /:city/api/notification/list-notify/:id/stream → text/event-stream: `status` events
 *   {id, push_status, recipients, delivered, failed_count, no_device, opened} at the opening and at
 *   each change, by any process (PostgreSQL NOTIFY, channel `push_status`). Read permission.
 * - POST /:city/api/users/devices/ {installation_id, token, platform?} → 200 {installation_id, platform}:
 *   the app registers its device token (one per installation of the signed-in user; a token moves
 *   to its newest owner). Any signed-in user of the city.
 * - PUT /:city/api/users/location/ {lat, lng} → 200 {located_at}: the app's last known location.
 * Delivery runs as jobs (./delivery.ts) through the provider of the settings (./providers.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceDef } from '../../shared/registry';
import { authorize, requireProfile } from '../auth/authorize';
import { storageCity, tableName } from '../db/resource-tables';
import { subscribe } from '../events/live-channel';
import { HttpError } from '../http-error';
import { pathParams } from '../openapi/call-schemas';
import { answer, errorAnswers, payloadBody } from '../openapi/components';
import { throwIfInvalid } from '../plugins/validation';
import { composeRecord } from '../repositories/resource-repository';
import { prepareEventStreams, serveEventStream } from '../routes/event-stream';
import { PUSH_CHANNEL, pushJob } from './delivery';
import { addPushHooks, cityIdOf, throwIfBadTargeting } from './push-hooks';
import { addSchoolPushHooks } from './school-push';
import { providerOf, type PushProvider } from './providers';
import { countRecipients, type Targeting } from './targeting';

declare module 'fastify' {
  interface FastifyInstance {
    /** The push provider of this process (./providers.ts); tests may replace it before the app is ready. */
    push: { provider: PushProvider };
  }
}

const TAGS = ['notification'];
const STATUS_FIELDS = ['push_status', 'recipients', 'delivered', 'failed_count', 'no_device', 'opened'] as const;
const COUNT = { type: 'integer', minimum: 0 };
/** The texts a count may leave out (they do not target), and what stands for them while checked. */
const COUNT_TEXT = { title: '-', body: '-' };
const COUNT_FILLED = Object.keys(COUNT_TEXT);

/** Registers the push calls, hooks and job kind (nothing when the resources lack notification or user_notify). */
export function registerPushRoutes(app: FastifyInstance, resources: ReadonlyMap<string, ResourceDef>): void {
  const notification = resources.get('notification');
  const userNotify = resources.get('user_notify');
  if (!notification || !userNotify) return;
  const { db } = app;
  app.decorate('push', { provider: providerOf(app.config.fcmCredentials ?? undefined) });
  const provider: PushProvider = {
    get name() {
      return app.push.provider.name;
    },
    get transactional() {
      return app.push.provider.transactional;
    },
    send: (messages, tx) => app.push.provider.send(messages, tx),
  };
  app.jobs.define(pushJob(db, notification, provider));
  addPushHooks(app, notification, userNotify);
  const schoolNotification = resources.get('school_notification');
  if (schoolNotification) addSchoolPushHooks(app, schoolNotification, notification);
  prepareEventStreams(app);

  app.post(
    '/:city/api/notification/recipient-count/',
    {
      schema: {
        operationId: 'notification_recipient_count',
        tags: TAGS,
        summary: 'How many users a notification would reach now (its body as for a create; path ours)',
        params: pathParams('/{city}/'),
        body: payloadBody(notification, COUNT_FILLED),
        response: { '200': answer('The count', { type: 'object', required: ['count'], properties: { count: COUNT } }), ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { city } = await authorize(request, 'create', notification.name);
      throwIfInvalid(request);
      const given = request.body as Record<string, unknown>;
      const texts = Object.fromEntries(Object.entries(COUNT_TEXT).filter(([k]) => typeof given?.[k] !== 'string' || given[k] === ''));
      const t = composeRecord(notification, { ...given, ...texts }) as Targeting;
      throwIfBadTargeting(t);
      return { count: await countRecipients(db, t, { id: city.id, name: city.name, resources }) };
    },
  );

  app.get(
    '/:city/api/notification/list-notify/:id/stream',
    {
      schema: {
        operationId: 'notification_push_stream',
        tags: ['live'],
        summary: "A push's status and counts as server-sent events `status` (path ours)",
        params: pathParams('/{city}/api/notification/list-notify/{id}/'),
        response: { '200': answer('Event stream', { type: 'string' }, 'text/event-stream'), ...errorAnswers(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { city } = await authorize(request, 'read', notification.name);
      throwIfInvalid(request);
      const id = Number((request.params as { id: string }).id);
      const key = storageCity(notification, city.name);
      const read = async () => {
        const [row] = await db.query<{ data: Record<string, unknown> }>(`SELECT data FROM ${tableName(notification)} WHERE id = $1 AND city = $2`, [id, key]);
        return row ? { id, ...Object.fromEntries(STATUS_FIELDS.map((f) => [f, row.data[f] ?? null])) } : null;
      };
      if (!Number.isSafeInteger(id) || !(await read())) throw new HttpError('not_found');
      await serveEventStream(
        request,
        reply,
        (send) =>
          subscribe(db, PUSH_CHANNEL, (e) => {
            if (e.id === id && e.city === key) void read().then((s) => s && send('status', s));
          }),
        { sendState: async (send) => send('status', (await read()) ?? {}) },
      );
    },
  );

  app.post(
    '/:city/api/users/devices/',
    {
      schema: {
        operationId: 'users_device_register',
        tags: ['users'],
        summary: "Register the signed-in user's device token for pushes (one per app installation; path ours)",
        params: pathParams('/{city}/'),
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['installation_id', 'token'],
          properties: {
            installation_id: { type: 'string', minLength: 1, maxLength: 200 },
            token: { type: 'string', minLength: 1, maxLength: 4096 },
            platform: { type: 'string', enum: ['ios', 'android', 'web', 'unknown'] },
          },
        },
        response: {
          '200': answer('Registered', { type: 'object', required: ['installation_id', 'platform'], properties: { installation_id: { type: 'string' }, platform: { type: 'string' } } }),
          ...errorAnswers(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      await authorize(request, 'update', 'account');
      throwIfInvalid(request);
      const profile = requireProfile(request);
      const b = request.body as { installation_id: string; token: string; platform?: string };
      const platform = b.platform ?? 'unknown';
      await db.transaction(async (tx) => {
        await tx.query('DELETE FROM member_devices WHERE token = $1 AND NOT (user_id = $2 AND installation_id = $3)', [b.token, profile.id, b.installation_id]);
        await tx.query(
          `INSERT INTO member_devices (user_id, installation_id, token, platform) VALUES ($1, $2, $3, $4)
           ON CONFLICT (user_id, installation_id) DO UPDATE SET token = EXCLUDED.token, platform = EXCLUDED.platform, updated_at = now()`,
          [profile.id, b.installation_id, b.token, platform],
        );
      });
      return { installation_id: b.installation_id, platform };
    },
  );

  app.put(
    '/:city/api/users/location/',
    {
      schema: {
        operationId: 'users_location_set',
        tags: ['users'],
        summary: "The signed-in user's last known location, for pushes by map (path ours)",
        params: pathParams('/{city}/'),
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['lat', 'lng'],
          properties: { lat: { type: 'number', minimum: -85, maximum: 85 }, lng: { type: 'number', minimum: -180, maximum: 180 } },
        },
        response: { '200': answer('Stored', { type: 'object', required: ['located_at'], properties: { located_at: { type: 'string', format: 'date-time' } } }), ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { city } = await authorize(request, 'update', 'account');
      throwIfInvalid(request);
      await cityIdOf(db, city.name);
      const b = request.body as { lat: number; lng: number };
      const [row] = await db.query<{ at: Date }>('UPDATE users SET last_point = point($2, $3), last_located_at = now() WHERE id = $1 RETURNING last_located_at AS at', [
        requireProfile(request).id,
        b.lng,
        b.lat,
      ]);
      return { located_at: new Date(row.at).toISOString() };
    },
  );
}
