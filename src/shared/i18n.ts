/**
 * The message catalogues (locales/<language>/<namespace>.json, one catalogue per language made by
 * merging its namespace files) and a plain translator for code without React (the server's error
 * answers). Japanese is the default; English, Chinese and Spanish are complete (000 1).
 */
import i18next, { type i18n as I18n } from 'i18next';
import { locales } from './generated/locales';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './constants';

type Tree = Record<string, unknown>;

/**
 * Deep-merges catalogue parts into one tree. Throws when two parts define the same key (a leaf, or
 * a leaf in one and a subtree in the other): each key lives in exactly one namespace file.
 */
export function mergeCatalogues(parts: readonly Tree[], where = ''): Tree {
  const out: Tree = {};
  for (const part of parts) {
    for (const [k, v] of Object.entries(part)) {
      const path = where ? `${where}.${k}` : k;
      const isTree = typeof v === 'object' && v !== null;
      if (!(k in out)) out[k] = isTree ? mergeCatalogues([v as Tree], path) : v;
      else if (isTree && typeof out[k] === 'object' && out[k] !== null) out[k] = mergeCatalogues([out[k] as Tree, v as Tree], path);
      else throw new Error(`locales: key '${path}' is defined twice`);
    }
  }
  return out;
}

export const catalogues = Object.fromEntries(LANGUAGES.map((l) => [l, mergeCatalogues(locales[l] ?? [])])) as Record<Language, Tree>;

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
