/**
 * JSON Schemas of the chat calls (docs/architecture.md 'Adding a route'; chat-routes.ts): bodies,
 * queries and answers, so Fastify checks them and /openapi.json documents them.
 */
import { pathParams } from '../openapi/call-schemas';
import { answer, errorAnswers } from '../openapi/components';
import { CHAT_PAGE_SIZE, CHAT_TEXT_MAX } from '../../shared/chat';
import { int4Id, pageLimit, pageOffset, rowId } from '../openapi/integer-params';

const id = rowId();
const nullableId = { type: ['integer', 'null'] } as const;
const nullableString = { type: ['string', 'null'] } as const;

/** A message. */
export const MESSAGE = {
  type: 'object',
  required: ['id', 'conversation_id', 'sender_id', 'sender_name', 'side', 'text', 'image_url', 'deleted', 'created_at'],
  properties: {
    id,
    conversation_id: id,
    sender_id: nullableId,
    sender_name: { type: 'string' },
    side: { type: 'string', description: 'city, shop, teacher or parent' },
    text: { type: 'string', description: 'As written: plain text, never HTML (empty when deleted)' },
    image_url: { ...nullableString, description: 'The uploaded image (/files/…), null when none or deleted' },
    deleted: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;

/** A conversation of the list (and the head of a conversation). */
export const CONVERSATION = {
  type: 'object',
  required: ['id', 'kind', 'city', 'shop_id', 'class_id', 'teacher_id', 'shop_name', 'shop_image', 'class_name', 'teacher_name', 'last_message', 'unread'],
  properties: {
    id,
    kind: { type: 'string', enum: ['shop', 'class'] },
    city: { type: 'string' },
    shop_id: nullableId,
    class_id: nullableId,
    teacher_id: nullableId,
    school_id: nullableId,
    shop_name: nullableString,
    shop_image: nullableString,
    class_name: nullableString,
    teacher_name: nullableString,
    last_message: { anyOf: [MESSAGE, { type: 'null' }] },
    unread: { type: 'integer', minimum: 0, description: "The caller's unread messages" },
    access: { type: 'string', enum: ['write', 'read', 'list'], description: 'What the caller may do: write (participant), read (class history), list' },
  },
} as const;

const TAGS = ['chat'];
const cityParams = pathParams('/{city}/');
const conversationParams = {
  type: 'object',
  required: ['city', 'id'],
  properties: { city: { type: 'string', description: 'City name (000 3 City), e.g. kobe' }, id },
} as const;

export const CHAT_SCHEMAS = {
  list: {
    operationId: 'chat_conversations_list',
    tags: TAGS,
    summary: 'Conversations the caller sees: shop name and image, last message, unread (path ours; 000 2.2 chat, group/chat)',
    params: cityParams,
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        kind: { type: 'string', enum: ['shop', 'class'], description: 'shop (default for Operators, Administrators, Advertisers) or class (Teachers, Presidents)' },
        limit: pageLimit(CHAT_PAGE_SIZE, 100),
        offset: pageOffset(1_000_000),
        class_id: rowId('Only the class chat of this class (the history route)'),
        teacher_id: int4Id(1, 'Only the class chat of this teacher (the history route)'),
      },
    },
    response: {
      '200': answer('The conversations', { type: 'object', required: ['content', 'total_length'], properties: { content: { type: 'array', items: CONVERSATION }, total_length: { type: 'integer' } } }),
      ...errorAnswers(400, 401, 403, 404),
    },
  },
  show: {
    operationId: 'chat_conversations_show',
    tags: TAGS,
    summary: 'One conversation (participants and readers only, others 404)',
    params: conversationParams,
    response: { '200': answer('The conversation', CONVERSATION), ...errorAnswers(400, 401, 403, 404) },
  },
  messages: {
    operationId: 'chat_messages_page',
    tags: TAGS,
    summary: `A page of messages going backwards: the ${CHAT_PAGE_SIZE} newest below \`before\`, oldest first, and the cursor of the page before (001 9 page size 20)`,
    params: conversationParams,
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: { before: rowId('A message id: the page ends below it (default: the newest)') },
    },
    response: {
      '200': answer('The page', {
        type: 'object',
        required: ['content', 'next_before'],
        properties: { content: { type: 'array', items: MESSAGE }, next_before: { ...nullableId, description: 'The `before` of the older page; null at the start' } },
      }),
      ...errorAnswers(400, 401, 403, 404),
    },
  },
  send: {
    operationId: 'chat_messages_send',
    tags: TAGS,
    summary: 'Send a message (participants only): text and/or an uploaded image; rate-limited per user',
    params: conversationParams,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        text: { type: 'string', maxLength: CHAT_TEXT_MAX, default: '' },
        image: { type: 'string', maxLength: 100, description: 'The `name` of an image uploaded by the sender in this city (POST /{city}/api/files/?kind=image)' },
      },
    },
    response: { '201': answer('Sent', MESSAGE), ...errorAnswers(400, 401, 403, 404, 429) },
  },
  read: {
    operationId: 'chat_conversations_read',
    tags: TAGS,
    summary: "Mark the conversation read for the caller; answers the caller's chat badge",
    params: conversationParams,
    response: {
      '200': answer('Read', { type: 'object', required: ['unread', 'chat_admin_unread'], properties: { unread: { type: 'integer' }, chat_admin_unread: { type: 'integer' } } }),
      ...errorAnswers(400, 401, 403, 404),
    },
  },
  delete: {
    operationId: 'chat_messages_delete',
    tags: TAGS,
    summary: 'Delete a message (Operator): it stays, shown as deleted',
    params: {
      type: 'object',
      required: ['city', 'id', 'messageId'],
      properties: { ...conversationParams.properties, messageId: id },
    },
    response: { '200': answer('Deleted', MESSAGE), ...errorAnswers(400, 401, 403, 404) },
  },
  stream: {
    operationId: 'chat_stream',
    tags: ['live'],
    summary: 'Chat events of the city the caller sees, as server-sent events `message` and `deleted` (the message), each with its `id`; resumes after Last-Event-ID or `last_event_id`',
    params: cityParams,
    querystring: { type: 'object', properties: { last_event_id: { ...rowId('Resume after this event id (as the Last-Event-ID header)'), minimum: 0 } } },
    response: { '200': answer('Event stream', { type: 'string' }, 'text/event-stream'), ...errorAnswers(400, 401, 403, 404) },
  },
} as const;
