/**
 * The one error handler of the API (docs/architecture.md 'Conventions'; 001 8). Every error answer is
 * `{detail, code, fields?}` in the request's language:
 * - `HttpError(code)` → `ERROR_STATUS[code]`; field errors translated with the shared `translateFieldErrors`;
 * - Fastify's own client errors (bad JSON, wrong content type…) → their 4xx status; a body past its
 *   limit → 413 saying the limit in bytes;
 * - anything else → 500 `{detail: 'Server Error Occured. Please Try Again !', code: 'server_error'}`,
 *   logged with its stack; a stack is never answered.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorKey, translateFieldErrors, type ApiError, type ErrorCode } from '../../shared/errors';
import { HttpError } from '../http-error';
import { translatorFor } from '../translator';

const CLIENT_CODES: Record<number, ErrorCode> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'session_expired',
  409: 'conflict',
  413: 'too_large',
  429: 'rate_limited',
};

/** The answer body and status of any thrown value, for `request` (language from Accept-Language). */
export function errorAnswer(err: unknown, request: FastifyRequest): { status: number; body: ApiError; headers?: Record<string, string> } {
  const t = translatorFor(request.headers['accept-language']);
  if (err instanceof HttpError) {
    const body: ApiError = { detail: err.detail ?? t(errorKey(err.code)), code: err.code };
    if (err.fieldErrors) body.fields = translateFieldErrors(err.fieldErrors, t);
    return { status: err.statusCode, body, headers: err.headers };
  }
  const status = (err as FastifyError | undefined)?.statusCode;
  if ((err as FastifyError | undefined)?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    // The body limit of the route (app.ts `bodyLimit`, or the route's own), said in bytes.
    const max = (request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0).toLocaleString('en-US');
    return { status: 413, body: { detail: t('errors.body_too_large', { max }), code: 'too_large' } };
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = CLIENT_CODES[status] ?? 'validation';
    return { status, body: { detail: t(errorKey(code)), code } };
  }
  return { status: 500, body: { detail: t(errorKey('server_error')), code: 'server_error' } };
}

/** Answers a JSON 404 `{detail, code: 'not_found'}` (unknown API route). */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body } = errorAnswer(new HttpError('not_found'), request);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** Installs the error handler on the root instance. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const { status, body, headers } = errorAnswer(err, request);
    // A client that went away while sending (an upload cancelled in the browser) is not a server fault.
    if (request.raw.aborted || (err as { code?: string }).code === 'ECONNRESET') request.log.info({ code: (err as { code?: string }).code }, 'request aborted by the client');
    else if (status >= 500) request.log.error({ err }, 'request failed');
    if (headers) reply.headers(headers);
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });
}
