/**
 * The error every failed API call becomes (001 8): the HTTP status, the server's `code`, `detail`
 * and per-field messages. It is also a Refine `HttpError` (`message`, `statusCode`, `errors`), so
 * forms can show the server's field errors.
 */
import type { ErrorCode } from '@/shared/errors';

export class ApiRequestError extends Error {
  /** HTTP status; 0 when the network failed before an answer. */
  readonly status: number;
  /** Same as `status`, the name Refine reads. */
  readonly statusCode: number;
  readonly code: ErrorCode | string;
  /** The server's human message in the request's language ('' when none). */
  readonly detail: string;
  /** Field messages of a 400 validation answer, already translated by the server. */
  readonly fields: Record<string, string[]> | undefined;
  /** `fields` under the name Refine reads. */
  readonly errors: Record<string, string[]> | undefined;

  constructor(init: { status: number; code: string; detail: string; message: string; fields?: Record<string, string[]> }) {
    super(init.message);
    this.name = 'ApiRequestError';
    this.status = init.status;
    this.statusCode = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.fields = init.fields;
    this.errors = init.fields;
  }
}

/** Whether a thrown value is an ApiRequestError (also across module copies). */
export function isApiError(e: unknown): e is ApiRequestError {
  return e instanceof ApiRequestError || (typeof e === 'object' && e !== null && (e as { name?: string }).name === 'ApiRequestError');
}
