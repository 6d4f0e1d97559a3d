/**
 * The console's i18next instance: the catalogues of locales/<language>/*.json, the language kept in
 * localStorage under STORAGE_LANGUAGE, Japanese when nothing (or something unknown) is stored (000 1,
 * 000 4 persisted UI state). Only what is in use is loaded (docs/performance.md: the login page's JS budget):
 * - languages: Japanese (the fallback) and the chosen one; another on a switch;
 * - namespaces: the boot namespaces (BOOT_NAMESPACES: the sign-in, city choice, open pages, errors)
 *   at start; every other namespace of locales/<language>/ (resources, fields, menus, lists, …) only
 *   when the console inside a city asks for it (`loadConsoleCatalogues`, awaited by the city entry);
 *   a hand-written page's own namespace (PAGE_NAMESPACES) only when that page opens.
 * Each part of a language is one lazy module (catalogue-scopes.ts, scripts/lib/catalogue-parts.ts).
 * Importing this module waits until the boot ones are in.
 * Components re-render when a catalogue arrives later (react-i18next `bindI18nStore: 'added'`).
 */
import i18next from 'i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, STORAGE_LANGUAGE, type Language } from '@/shared/constants';
import CATALOGUE_PARTS from 'virtual:catalogue-parts';
import type { CatalogueScope } from './catalogue-scopes';
import { storedLanguage } from './stored-language';

type Tree = Record<string, unknown>;

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
void i18n.init({
  resources: {},
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  initAsync: false,
  interpolation: { escapeValue: false },
  // A catalogue part added after the first render (the console namespaces) re-renders its readers.
  react: { bindI18nStore: 'added' },
});

const loading = new Map<string, Promise<void>>();
/** Set once the console inside a city has asked for its namespaces: a language switch loads them too. */
let consoleWanted = false;

/**
 * Loads one part of the catalogue of `lng` once: the boot namespaces or every other namespace file
 * of locales/<lng>/, merged into the one `translation` namespace. Resolves when i18next has it.
 */
export function loadCatalogue(lng: Language, scope: CatalogueScope): Promise<void> {
  const key = `${lng}:${scope}`;
  let p = loading.get(key);
  if (!p) {
    const part = CATALOGUE_PARTS[key];
    p = (part ? part() : Promise.resolve({ default: [] })).then((m) => {
      i18n.addResourceBundle(lng, 'translation', mergeTrees(m.default), true, true);
    });
    loading.set(key, p);
  }
  return p;
}

/** Loads what `lng` needs now: its boot namespaces, and the console ones once a city is entered. */
export function loadLanguage(lng: Language): Promise<void> {
  return Promise.all([loadCatalogue(lng, 'boot'), consoleWanted ? loadCatalogue(lng, 'console') : undefined]).then(() => undefined);
}

/**
 * The console namespaces (resources, fields, enums, menus, lists, rules, …) of Japanese and the
 * current language; the city entry awaits this before the console renders. Later switches load them
 * for the new language too.
 */
export function loadConsoleCatalogues(): Promise<void> {
  consoleWanted = true;
  return Promise.all([loadCatalogue(DEFAULT_LANGUAGE, 'console'), loadCatalogue(currentLanguage(), 'console')]).then(() => undefined);
}

// A language chosen by other means than `switchLanguage` still gets its catalogue.
i18n.on('languageChanged', (lng) => {
  if ((LANGUAGES as readonly string[]).includes(lng)) void loadLanguage(lng as Language);
});

await Promise.all([loadLanguage(DEFAULT_LANGUAGE), loadLanguage(storedLanguage())]);
// The bundles arrived after init: make i18next (and react-i18next) read them.
await i18n.changeLanguage(storedLanguage());
if (typeof document !== 'undefined') document.documentElement.lang = storedLanguage();

/** Other per-language resources to load before a switch takes effect (antd's and dayjs's locales). */
const switchLoaders: ((lng: Language) => Promise<unknown>)[] = [];

/** Registers `load`, awaited with the catalogue by every `switchLanguage` before the language changes. */
export function beforeLanguageSwitch(load: (lng: Language) => Promise<unknown>): void {
  switchLoaders.push(load);
}

/** Switches the interface language (loading its catalogue first) and keeps it in localStorage. */
export async function switchLanguage(lng: Language): Promise<void> {
  await Promise.all([loadLanguage(lng), ...switchLoaders.map((load) => load(lng))]);
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
