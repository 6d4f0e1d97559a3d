/**
 * Business constants and limits of the contract (001 section 9), shared by the console and the server.
 * Units are in the names: *_MS milliseconds, *_BYTES bytes, *_PX pixels.
 */

/** Cookie names of 001 9 (Interface). Set by the server as HttpOnly; never read by the console. */
export const COOKIE_ACCESS = 'Admin-Token';
export const COOKIE_REFRESH = 'Admin-Refresh-Token';
export const COOKIE_REDIRECT = 'Redirect-Token';

/** Local-storage key that keeps the chosen city (000 3, 001 9). */
export const STORAGE_CITY = 'City';
/** Local-storage key that keeps the chosen language (000 4 persisted UI state). */
export const STORAGE_LANGUAGE = 'language';

/** Default page size of lists (001 9 Paging). */
export const PAGE_SIZE = 20;
/** Largest `limit` a list call accepts (ours: the spec's largest is the station list's 1000). */
export const MAX_LIMIT = 1000;

/** Token refresh interval (001 7.1, 9). */
export const TOKEN_REFRESH_INTERVAL_MS = 60_000;
/** Lifetime of an access token (ours: a little over two refresh intervals). */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
/** Lifetime of a refresh token family (ours). */
export const REFRESH_TOKEN_TTL_S = 14 * 24 * 60 * 60;
/**
 * How long (s) the refresh token rotated last may be presented again while its successor is unused,
 * for an answer lost on the way (ours; src/server/auth/tokens.ts). Later, or once the successor was
 * used, it counts as stolen and ends the session.
 */
export const REFRESH_REUSE_LEEWAY_S = 30;

/** Error toast and login message durations (001 9 Time and timing). */
export const ERROR_TOAST_MS = 5_000;
export const LOGIN_MESSAGE_MS = 5_000;

/** Text limits (001 9). */
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 5_000;
export const PASSWORD_MIN = 8;

/** The special city of the member area (000 2.1, 6). */
export const MEMBER_CITY = 'cippoweb';
/** The city reserved for Administrators (000 6). */
export const ADVERTISER_CITY = 'advertiser';
/** The city whose login is the default session city (001 7.1). */
export const DEFAULT_CITY = 'default';

/** Supported interface languages; Japanese is the default (000 1). */
export const LANGUAGES = ['ja', 'en', 'zh', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ja';
