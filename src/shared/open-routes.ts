/**
 * The paths of the console and the server that are not a city's (000 2.1 open routes: login,
 * policy, terms, app usage pages, bread FAQ, booking policy, auth redirect, add teacher, my number;
 * the error pages; the server's own `/assets/…`, `/openapi.json` and the password reset calls). Every other first path segment is a city code (`/:city/…`, 000 2.2), so none of
 * these may be one: `npm run new-city` and `npm run check` (scripts/validate.ts) refuse them.
 */

/** The open text views and their paths (000 2.1; `/:city/policy` is the city route without layout, 000 2.2). */
export const STATIC_VIEWS = {
  policy: ['/policy', '/:city/policy'],
  terms: ['/terms'],
  usageInstruction: ['/app-usage-instruction'],
  usageSurvey: ['/app-usage-survey'],
  breadFaq: ['/bread-faq'],
  bookingPolicy: ['/booking-policy'],
} as const;
export type StaticView = keyof typeof STATIC_VIEWS;

/** The console's open pages the account mails link to (001 7.1 password reset, 7.2 e-mail verification). */
export const ACCOUNT_PATHS = {
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
} as const;

/** First path segments used by the console's open pages and by the server itself. */
export const RESERVED_SEGMENTS: readonly string[] = [
  ...new Set([
    ...Object.values(STATIC_VIEWS).flatMap((paths) => paths.map((p) => p.split('/')[1]).filter((s) => !s.startsWith(':'))),
    'login',
    ...Object.values(ACCOUNT_PATHS).map((p) => p.slice(1)),
    'auth-redirect',
    'redirect',
    'add_teacher',
    'mynumber',
    '401',
    '404',
    // The city chooser (000 2.1 Root entry goes to /city) and the server's own paths (`/default/…`
    // are those of the default city, DEFAULT_CITY of constants.ts, a city with its manifest).
    'city',
    'api',
    'assets',
    'openapi',
    'openapi.json',
    'request_reset_password_operator',
    'reset_password_operator',
    // The country, never a city of its own.
    'japan',
  ]),
];

/**
 * Whether `code` may not be a city code because it is the first segment of an open or server path
 * (case-insensitive: the router matches paths so). Answers true for a reserved word.
 */
export function isReservedCityCode(code: string): boolean {
  return RESERVED_SEGMENTS.includes(code.toLowerCase());
}

/** Second segments of a city's open pages (`/:city/policy`). */
const CITY_OPEN_PAGES = new Set(Object.values(STATIC_VIEWS).flatMap((paths) => paths.filter((p) => p.startsWith('/:city/')).map((p) => p.split('/')[2])));

/**
 * Whether `pathname` is a page of a city's console (`/kobe/news`), not an open or server page
 * (`/login`, `/kobe/policy`, `/city`, `/`): its first segment is no reserved word.
 */
export function isCityPagePath(pathname: string): boolean {
  const [first, second] = pathname.split('/').slice(1);
  return Boolean(first) && !isReservedCityCode(first) && !CITY_OPEN_PAGES.has(second);
}
