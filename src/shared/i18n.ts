/**
 * The message catalogues (locales/*.json) and a plain translator for code without React (the
 * server's error answers). Japanese is the default; English, Chinese and Spanish are complete (000 1).
 */
import i18next, { type i18n as I18n } from 'i18next';
import ja from '../../locales/ja.json' with { type: 'json' };
import en from '../../locales/en.json' with { type: 'json' };
import zh from '../../locales/zh.json' with { type: 'json' };
import es from '../../locales/es.json' with { type: 'json' };
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './constants';

export const catalogues: Record<Language, Record<string, unknown>> = { ja, en, zh, es };

/** i18next resources in the shape `init({ resources })` wants. */
export const resources = Object.fromEntries(LANGUAGES.map((l) => [l, { translation: catalogues[l] }]));

/** A new i18next instance with every catalogue loaded, set to `lng` (default Japanese). */
export function createI18n(lng: Language = DEFAULT_LANGUAGE): I18n {
  const instance = i18next.createInstance();
  void instance.init({ resources, lng, fallbackLng: DEFAULT_LANGUAGE, initAsync: false, interpolation: { escapeValue: false } });
  return instance;
}

/**
 * The language of an `Accept-Language` header (first supported tag wins), else Japanese.
 * Example: `en-US,en;q=0.9` → `en`.
 */
export function pickLanguage(header: string | undefined): Language {
  for (const part of (header ?? '').split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase().slice(0, 2);
    if ((LANGUAGES as readonly string[]).includes(tag)) return tag as Language;
  }
  return DEFAULT_LANGUAGE;
}
