/**
 * The interface language kept in localStorage under STORAGE_LANGUAGE (000 1, 000 4 persisted UI
 * state). No side effects and no waiting at the top level, so early-loads.ts can read it before
 * i18n.ts has its catalogue.
 */
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
