/**
 * The persisted UI state of the shell (000 4 'Persisted UI state'; 001 9 Interface): the element size
 * (medium by default; medium, small, mini), the theme colour (default #409EFF), dark mode, all kept
 * in localStorage, and the sidebar's open/closed state kept in the `sidebarStatus` cookie (1 open,
 * 0 closed). A tiny external store read by React through `useUiPreferences`; small on purpose: the
 * antd configuration of the login page reads it.
 */
import { useSyncExternalStore } from 'react';

/** Element sizes of the size picker (000 4). */
export const SIZES = ['medium', 'small', 'mini'] as const;
export type Size = (typeof SIZES)[number];
/** Default theme colour (000 2.3 theme picker; the old console's primary colour). */
export const DEFAULT_THEME_COLOR = '#409EFF';
/** localStorage keys and the sidebar cookie's name. */
export const STORAGE_SIZE = 'size';
export const STORAGE_THEME_COLOR = 'theme-color';
export const STORAGE_DARK = 'theme-dark';
export const COOKIE_SIDEBAR = 'sidebarStatus';

export interface UiPreferences {
  size: Size;
  /** `#rrggbb`. */
  themeColor: string;
  dark: boolean;
  /** Whether the sidebar is open (desktop layout). */
  sidebarOpen: boolean;
}

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage unavailable: the choice lives for this page only
  }
}

/** The value of a cookie of `document.cookie`, or null. */
export function cookieValue(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

function initial(): UiPreferences {
  const size = read(STORAGE_SIZE);
  const color = read(STORAGE_THEME_COLOR);
  const cookie = typeof document === 'undefined' ? null : cookieValue(document.cookie, COOKIE_SIDEBAR);
  return {
    size: (SIZES as readonly string[]).includes(size ?? '') ? (size as Size) : 'medium',
    themeColor: /^#[0-9a-f]{6}$/i.test(color ?? '') ? color! : DEFAULT_THEME_COLOR,
    dark: read(STORAGE_DARK) === '1',
    sidebarOpen: cookie !== '0',
  };
}

let state: UiPreferences = initial();
const listeners = new Set<() => void>();

/** Changes some preferences and keeps them (localStorage, the sidebar cookie for a year). */
export function setUiPreferences(next: Partial<UiPreferences>): void {
  state = { ...state, ...next };
  if (next.size) write(STORAGE_SIZE, next.size);
  if (next.themeColor) write(STORAGE_THEME_COLOR, next.themeColor);
  if (next.dark !== undefined) write(STORAGE_DARK, next.dark ? '1' : '0');
  if (next.sidebarOpen !== undefined) document.cookie = `${COOKIE_SIDEBAR}=${next.sidebarOpen ? 1 : 0}; path=/; max-age=31536000; samesite=strict`;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current preferences as React state. */
export function useUiPreferences(): UiPreferences {
  return useSyncExternalStore(subscribe, () => state, () => state);
}
