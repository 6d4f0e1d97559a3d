/**
 * The one error type route code throws (docs/architecture.md 'Conventions'; 001 8). The error handler of
 * `plugins/errors.ts` turns it into `{detail, code, fields?}` with the status of `ERROR_STATUS`.
 */
import { ERROR_STATUS, type ErrorCode } from '../shared/errors';
import type { FieldErrors } from '../shared/validation';

export interface HttpErrorOptions {
  /** The message; default: the code's message `errors.<code>` in the request's language. */
  detail?: string;
  /** Field errors as i18n keys; translated in the request's language into `fields`. */
  fieldErrors?: FieldErrors;
  /** Extra answer headers (e.g. Retry-After of a 429). */
  headers?: Record<string, string>;
  /** Why, for the server log only (the error's message); never answered. */
  reason?: string;
}

/** An error answer of the API: `new HttpError('forbidden')` → 403 `{detail, code: 'forbidden'}`. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly detail?: string;
  readonly fieldErrors?: FieldErrors;
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    options: HttpErrorOptions = {},
  ) {
    super(options.reason ?? options.detail ?? code);
    this.name = 'HttpError';
    this.statusCode = ERROR_STATUS[code];
    this.detail = options.detail;
    this.fieldErrors = options.fieldErrors;
    this.headers = options.headers;
  }
}
