/**
 * The Fastify schemas of the users, account and city calls (001 7.1, 7.2, 7.3; routes/users.ts,
 * routes/user-city-routes.ts): what each validates (000 5 password and registration rules, with the
 * messages of the forms in `x-messages`), answers and shows in /openapi.json. What a schema cannot
 * say (a trimmed value left empty, a confirmation that differs, a username taken, cities by name)
 * stays in the handlers (./user-inputs.ts).
 */
import type { FastifySchema } from 'fastify';
import { DESCRIPTION_MAX, PASSWORD_MIN } from '../../shared/constants';
import { ACCEPTED_PERMISSIONS, USER_FILTERS } from '../../shared/roles';
import { pathParams } from '../openapi/call-schemas';
import { answer, errorAnswers, ref } from '../openapi/components';
import { int4Id, pageLimit, pageOffset, rowId } from '../openapi/integer-params';

type Json = Record<string, unknown>;

/** Longest username, name, e-mail address and avatar URL, in characters (000 5). */
export const USERNAME_MAX = 150;
export const NAME_MAX = 64;
export const EMAIL_MAX = 254;
export const URL_MAX = 2000;

const TAGS = ['users'];
const CITY_PARAMS = pathParams('/{city}/');
/** A city and a user id (users.id is a PostgreSQL `integer`). */
const USER_PARAMS = { type: 'object', required: ['city', 'id'], properties: { city: { type: 'string', description: 'City name (000 3 City), e.g. kobe' }, id: int4Id(1, 'A user id') } };

const username = { type: 'string', maxLength: USERNAME_MAX, pattern: '^\\s*\\S*\\s*$', description: 'No space inside', 'x-messages': { required: 'login.usernameRequired' } };
const email = {
  type: 'string',
  maxLength: EMAIL_MAX,
  pattern: '^\\s*([^\\s@]+@[^\\s@]+\\.[^\\s@]+)?\\s*$',
  'x-messages': { required: 'users.validation.emailRequired', maxLength: 'users.validation.emailInvalid', pattern: 'users.validation.emailInvalid' },
};
const name = { type: 'string', maxLength: NAME_MAX, 'x-messages': { maxLength: 'validation.name.maxLength' } };
const introduction = { type: ['string', 'null'], maxLength: DESCRIPTION_MAX };
const FORMAT = 'validation.generic.format';
const avatar = {
  type: ['string', 'null'],
  maxLength: URL_MAX,
  pattern: '^((https?://|/(?!/))\\S+)?$',
  description: 'An http(s) URL or a path of this server; null or "" for none',
  'x-messages': { type: FORMAT, maxLength: FORMAT, pattern: FORMAT },
};
const RULE = 'login.passwordRule';
/** 000 5: at least 8 characters without a space. */
const password = {
  type: 'string',
  minLength: PASSWORD_MIN,
  pattern: '^\\S*$',
  'x-messages': { required: 'login.passwordRequired', minLength: RULE, pattern: RULE },
};
/** The same rule, and "" for no change. */
const newPasswordOrNone = {
  type: 'string',
  if: { minLength: 1 },
  then: { minLength: PASSWORD_MIN, pattern: '^\\S*$' },
  description: 'A new password (000 5 rules); empty or missing: unchanged',
  'x-messages': { minLength: RULE, pattern: RULE },
};
const confirm = { type: 'string', minLength: 1, 'x-messages': { required: 'users.validation.confirmRequired', minLength: 'users.validation.confirmRequired' } };
const id = { type: ['integer', 'null'], minimum: 0 };
const management: Record<string, Json> = {
  permission: { type: 'string', enum: [...ACCEPTED_PERMISSIONS] },
  is_captain_department: { type: 'boolean' },
  assign_city: {
    type: 'array',
    items: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }] },
    description: 'Cities by name, id or {id}; an Operator only among its own',
    'x-messages': { type: 'validation.generic.enum', anyOf: 'validation.generic.enum' },
  },
  school: id,
  group: id,
  classes: { type: 'array', items: { type: 'integer', minimum: 0 } },
};

function body(properties: Record<string, Json>, required: string[] = []): Json {
  return { type: 'object', ...(required.length > 0 ? { required } : {}), properties };
}

function schema(operationId: string, summary: string, rest: FastifySchema & Json): FastifySchema {
  return { operationId, tags: TAGS, summary, ...rest };
}

const PROFILE = (description: string) => answer(description, ref('Profile'));
const DETAIL = (description: string) => answer(description, ref('Detail'));
const LIST_QUERY = {
  type: 'object',
  properties: {
    limit: pageLimit(20),
    offset: pageOffset(),
    search: { type: 'string', description: 'Substring of username, name or e-mail' },
    ids: { type: 'string', description: 'Only these user ids, comma-separated (at most 100)' },
  },
};
const list = (operationId: string, summary: string, filter = false): FastifySchema =>
  schema(operationId, summary, {
    params: CITY_PARAMS,
    querystring: filter ? { ...LIST_QUERY, properties: { ...LIST_QUERY.properties, filter_by: { type: 'string', enum: [...USER_FILTERS, ''], default: 'all' } } } : LIST_QUERY,
    response: { '200': answer('One page of users', ref('ProfileList')), ...errorAnswers(400, 401, 403, 404) },
  });
const COUNTS = (key: string) => ({ type: 'object', required: ['city', 'total', key], properties: { city: ref('City'), total: { type: 'integer' }, [key]: { type: 'object', additionalProperties: { type: 'integer' } } } });

/** The schemas of routes/users.ts, by route. */
export const USER_SCHEMAS = {
  list: list('users_list', 'Users of the city (001 7.2)', true),
  adsUsersOfCity: list('users_ads_of_city', 'Advertisers of the city (001 7.2)'),
  adsUsers: list('users_ads', 'Advertisers of every city the caller manages (001 7.2)'),
  memberUsers: list('users_members', 'Members of the city, for vouchers (001 7.8)'),
  adminInfo: schema('users_admin_info', 'Users of the city by role (001 7.2)', { params: CITY_PARAMS, response: { '200': answer('Counts', COUNTS('by_role')), ...errorAnswers(401, 403, 404) } }),
  operationInfo: schema('users_operation_info', 'Users of the city by list filter (001 7.2)', { params: CITY_PARAMS, response: { '200': answer('Counts', COUNTS('by_filter')), ...errorAnswers(401, 403, 404) } }),
  create: schema('users_create', 'Create a user of the city (001 7.2)', {
    params: CITY_PARAMS,
    body: body({ username, email, password, name, introduction, avatar, ...management }, ['username', 'email', 'password', 'permission']),
    response: { '201': PROFILE('The new user'), ...errorAnswers(400, 401, 403, 404) },
  }),
  update: schema('users_update', 'Change a user of the city (001 7.2)', {
    params: USER_PARAMS,
    body: body({ username, email, password: newPasswordOrNone, name, introduction, avatar, ...management }),
    response: { '200': PROFILE('The user'), ...errorAnswers(400, 401, 403, 404) },
  }),
  remove: schema('users_delete', 'Delete a user, or take it out of the city (001 7.2)', {
    params: USER_PARAMS,
    response: { '204': answer('Deleted'), '209': DETAIL('Refused (the caller itself, the last Administrator): the user stays'), ...errorAnswers(401, 403, 404) },
  }),
  addTeacher: schema('users_add_teacher', 'Add a Teacher of a school, or make a user of the city one (001 7.2)', {
    params: CITY_PARAMS,
    body: body({ username, email, name, password, school: { type: 'integer', minimum: 0 } }, ['username', 'school']),
    response: { '201': PROFILE('The new Teacher'), '200': PROFILE('The user, now Teacher of the school'), ...errorAnswers(400, 401, 403, 404) },
  }),
  removeTeacher: schema('users_remove_teacher', 'Take a Teacher off its school (001 7.2)', {
    params: USER_PARAMS,
    querystring: { type: 'object', properties: { school: { ...rowId('Or in the body'), minimum: 0 } } },
    body: body({ school: { type: 'integer', minimum: 0 } }),
    response: { '200': PROFILE('The user'), ...errorAnswers(400, 401, 403, 404) },
  }),
  classes: schema('users_classes', 'Class ids of the caller, or of a user for a manager (001 7.13)', {
    params: CITY_PARAMS,
    querystring: { type: 'object', properties: { user_id: int4Id(0) } },
    response: { '200': answer('Class ids', { type: 'object', required: ['content', 'total_length'], properties: { content: { type: 'array', items: { type: 'integer' } }, total_length: { type: 'integer' } } }), ...errorAnswers(400, 401, 403, 404) },
  }),
  account: schema('users_account_update', 'Change the own account (001 7.1); a new e-mail is unverified', {
    params: CITY_PARAMS,
    body: body({ name, email, introduction, avatar, username: { type: 'string', description: 'Ignored: the username is not changed here' } }),
    response: { '200': PROFILE('The user'), ...errorAnswers(400, 401, 403, 404) },
  }),
  changePassword: schema('users_change_password', 'Change the own password; other sessions end (001 7.1)', {
    params: CITY_PARAMS,
    body: body({ old: { type: 'string', minLength: 1, 'x-messages': { required: 'login.passwordRequired', minLength: 'login.passwordRequired' } }, new: password, confirm }, ['old', 'new', 'confirm']),
    response: { '200': DETAIL('Changed'), ...errorAnswers(400, 401, 403, 404) },
  }),
  youtubeThumbnail: schema('users_youtube_thumbnail', 'The thumbnail of a YouTube video (no network)', {
    params: CITY_PARAMS,
    querystring: { type: 'object', required: ['url'], properties: { url: { type: 'string', description: 'A watch, short, embed, shorts or live URL, or an id', 'x-messages': { required: 'users.validation.youtubeUrl' } } } },
    response: { '200': answer('The thumbnail URL', { type: 'object', required: ['url'], properties: { url: { type: 'string' } } }), ...errorAnswers(400, 401, 403, 404) },
  }),
  firebaseToken: schema('users_firebase_token', 'A new random chat token (001 7.12)', {
    params: CITY_PARAMS,
    response: { '200': answer('The token', { type: 'object', required: ['token_firebase'], properties: { token_firebase: { type: 'string' } } }), ...errorAnswers(401, 403, 404) },
  }),
  mynumber: schema('users_mynumber_start', 'Start a my-number link (001 7.1)', {
    body: body({ redirect: { type: 'string', pattern: '^/(?![/\\\\])[^\\s\\\\]*$', description: 'A path of this site to go to afterwards (default /)', 'x-messages': { pattern: FORMAT } } }),
    response: { '200': answer('The state of the link', { type: 'object', required: ['state', 'expires_in'], properties: { state: { type: 'string' }, expires_in: { type: 'integer' } } }), ...errorAnswers(400, 401) },
  }),
  mynumberCallback: schema('users_mynumber_callback', 'The my-number callback (001 7.1; path ours)', {
    security: [],
    querystring: { type: 'object', properties: { error: { type: 'string' } } },
    body: body({ code: { type: 'string' }, error: { type: 'string' }, error_description: { type: 'string' }, state: { type: 'string' } }),
    response: { '200': answer('The address to go to', { type: 'object', required: ['data'], properties: { data: { type: 'string' } } }), ...errorAnswers(400) },
  }),
  register: schema('users_register', 'Register an Advertiser of the city (000 5 registration)', {
    security: [],
    params: CITY_PARAMS,
    body: body(
      { username, email, name, password: { type: 'string', minLength: PASSWORD_MIN, 'x-messages': { required: 'login.passwordRequired', minLength: 'users.validation.registerPassword' } }, confirm },
      ['username', 'email', 'password', 'confirm'],
    ),
    response: { '201': PROFILE('The new user, e-mail unverified'), ...errorAnswers(400, 404, 429) },
  }),
  emailVerification: schema('users_email_verification', 'Ask for an e-mail verification (own account, or by address)', {
    security: [],
    params: CITY_PARAMS,
    body: body({ email: { type: 'string', description: 'Without a session: the address' } }),
    response: { '200': DETAIL('Sent when the address is known; the answer never tells'), ...errorAnswers(400, 429) },
  }),
  confirm: schema('users_confirm_email', 'Confirm an e-mail: with its one-time token, or by a manager', {
    security: [],
    params: USER_PARAMS,
    body: body({ token: { type: 'string' } }),
    response: { '200': DETAIL('Confirmed'), ...errorAnswers(400, 403, 404, 429) },
  }),
  requestReset: schema('users_request_password_reset', 'Ask for a password reset (always 200; 001 7.1)', {
    security: [],
    querystring: { type: 'object', properties: { email: { type: 'string' } } },
    response: { '200': DETAIL('Asked'), ...errorAnswers(400, 429) },
  }),
  reset: schema('users_reset_password', 'Set a new password with a reset token; every session ends (001 7.1)', {
    security: [],
    body: body({ token: { type: 'string', minLength: 1, 'x-messages': { minLength: 'validation.generic.required' } }, password, confirm }, ['token', 'password', 'confirm']),
    response: { '200': DETAIL('Changed'), ...errorAnswers(400, 429) },
  }),
} satisfies Record<string, FastifySchema>;

const CITY = (description: string) => answer(description, ref('City'));

/** The schemas of routes/user-city-routes.ts, by route (001 7.3). */
export const USER_CITY_SCHEMAS = {
  specify: schema('cities_specify', 'A city by name or id (001 7.3)', {
    tags: ['cities'],
    querystring: { type: 'object', properties: { name: { type: 'string' }, id: int4Id() } },
    response: { '200': CITY('The city'), ...errorAnswers(400, 401, 404) },
  }),
  byPath: schema('cities_show', 'A city by its path name (001 7.3)', { tags: ['cities'], params: CITY_PARAMS, response: { '200': CITY('The city'), ...errorAnswers(401, 404) } }),
  rename: schema('cities_rename', "Change a city's Japanese name (Administrator; 001 7.3)", {
    tags: ['cities'],
    params: CITY_PARAMS,
    body: body({ name_ja: { type: 'string', maxLength: NAME_MAX, pattern: '\\S', 'x-messages': { pattern: 'validation.generic.required' } } }, ['name_ja']),
    response: { '200': CITY('The city'), ...errorAnswers(400, 401, 403, 404) },
  }),
  operation: schema('cities_operation', 'Whether a user is assigned to a city and may operate it (001 7.3)', {
    tags: ['cities'],
    querystring: { type: 'object', required: ['city_id', 'user_id'], properties: { city_id: int4Id(0), user_id: int4Id(0) } },
    response: {
      '200': answer('The answer', {
        type: 'object',
        required: ['city', 'user_id', 'assigned', 'operation'],
        properties: { city: ref('City'), user_id: { type: 'integer' }, assigned: { type: 'boolean' }, operation: { type: 'boolean' } },
      }),
      ...errorAnswers(400, 401, 403, 404),
    },
  }),
} satisfies Record<string, FastifySchema>;
