/**
 * The console's i18next instance: the catalogues of locales/<language>/*.json, the language kept in
 * localStorage under STORAGE_LANGUAGE, Japanese when nothing (or something unknown) is stored (000 1,
 * 000 4 persisted UI state). Only the languages in use are loaded (Japanese, the fallback, and the
 * chosen one; another on a switch), each namespace file as its own lazy chunk: the login page does
 * not carry all four catalogues. Importing this module waits until the first ones are in.
 */
import i18next from 'i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, STORAGE_LANGUAGE, type Language } from '@/shared/constants';

type Tree = Record<string, unknown>;

/** Every namespace file of every language, loaded on demand (Vite makes one chunk per file). */
const FILES = import.meta.glob<Tree>('../../locales/*/*.json', { import: 'default' });

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

/** Deep-merges namespace files into one catalogue (`npm run validate` keeps their keys apart). */
export function mergeTrees(parts: readonly Tree[]): Tree {
  const out: Tree = {};
  for (const part of parts) {
    for (const [k, v] of Object.entries(part)) {
      const both = typeof v === 'object' && v !== null && typeof out[k] === 'object' && out[k] !== null;
      out[k] = both ? mergeTrees([out[k] as Tree, v as Tree]) : v;
    }
  }
  return out;
}

/** The one i18next instance of the console. */
export const i18n = i18next.createInstance();
void i18n.init({ resources: {}, lng: storedLanguage(), fallbackLng: DEFAULT_LANGUAGE, initAsync: false, interpolation: { escapeValue: false } });

const loading = new Map<Language, Promise<void>>();

/** Loads the catalogue of `lng` once (every namespace file of locales/<lng>/). */
export function loadLanguage(lng: Language): Promise<void> {
  let p = loading.get(lng);
  if (!p) {
    const files = Object.entries(FILES).filter(([path]) => path.includes(`/locales/${lng}/`));
    p = Promise.all(files.map(([, load]) => load())).then((parts) => {
      i18n.addResourceBundle(lng, 'translation', mergeTrees(parts), true, true);
    });
    loading.set(lng, p);
  }
  return p;
}

// A language chosen by other means than `switchLanguage` still gets its catalogue.
i18n.on('languageChanged', (lng) => {
  if ((LANGUAGES as readonly string[]).includes(lng)) void loadLanguage(lng as Language);
});

await Promise.all([loadLanguage(DEFAULT_LANGUAGE), loadLanguage(storedLanguage())]);
// The bundles arrived after init: make i18next (and react-i18next) read them.
await i18n.changeLanguage(storedLanguage());
if (typeof document !== 'undefined') document.documentElement.lang = storedLanguage();

/** Switches the interface language (loading its catalogue first) and keeps it in localStorage. */
export async function switchLanguage(lng: Language): Promise<void> {
  await loadLanguage(lng);
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
  const lng = (i18n.language ?? i18n.resolvedLanguage ?? DEFAULT_LANGUAGE).slice(0, 2);
  return (LANGUAGES as readonly string[]).includes(lng) ? (lng as Language) : DEFAULT_LANGUAGE;
}
