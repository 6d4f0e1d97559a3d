/**
 * The console's i18next instance: every catalogue of locales/<language>/*.json (through src/shared/i18n), the
 * language kept in localStorage under STORAGE_LANGUAGE, Japanese when nothing (or something unknown)
 * is stored (000 1, 000 4 persisted UI state).
 */
import { createI18n } from '@/shared/i18n';
import { DEFAULT_LANGUAGE, LANGUAGES, STORAGE_LANGUAGE, type Language } from '@/shared/constants';

/** The stored language when it is a supported one, else Japanese. */
export function storedLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = globalThis.localStorage?.getItem(STORAGE_LANGUAGE) ?? null;
  } catch {
    stored = null;
  }
  return (LANGUAGES as readonly string[]).includes(stored ?? '') ? (stored as Language) : DEFAULT_LANGUAGE;
}

/** The one i18next instance of the console. */
export const i18n = createI18n(storedLanguage());
if (typeof document !== 'undefined') document.documentElement.lang = storedLanguage();

/** Switches the interface language and keeps it in localStorage. */
export async function switchLanguage(lng: Language): Promise<void> {
  await i18n.changeLanguage(lng);
  try {
    localStorage.setItem(STORAGE_LANGUAGE, lng);
  } catch {
    // storage may be unavailable (private mode); the language still switches for this page
  }
  document.documentElement.lang = lng;
}

/** The current language as a supported one (falls back to Japanese). */
export function currentLanguage(): Language {
  const lng = (i18n.resolvedLanguage ?? i18n.language ?? DEFAULT_LANGUAGE).slice(0, 2);
  return (LANGUAGES as readonly string[]).includes(lng) ? (lng as Language) : DEFAULT_LANGUAGE;
}
