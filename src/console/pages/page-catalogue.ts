/**
 * The texts of a hand-written page that load with the page, not with the city (i18n.ts
 * PAGE_NAMESPACES; docs/performance.md 'What each page loads'): a page's lazy import awaits
 * `loadPageCatalogue` before the page renders, and a language switch loads the namespaces asked for
 * so far in the new language before it takes effect. The code lives here, out of the login page.
 */
import { DEFAULT_LANGUAGE } from '@/shared/constants';
import { beforeLanguageSwitch, currentLanguage, loadCatalogue } from '../i18n';

/** The page namespaces some page has asked for. */
const wanted = new Set<string>();

beforeLanguageSwitch((lng) => Promise.all([...wanted].map((ns) => loadCatalogue(lng, `page:${ns}`))));

/** Loads the namespace `namespace` of PAGE_NAMESPACES in Japanese and the current language. */
export function loadPageCatalogue(namespace: string): Promise<void> {
  wanted.add(namespace);
  return Promise.all([loadCatalogue(DEFAULT_LANGUAGE, `page:${namespace}`), loadCatalogue(currentLanguage(), `page:${namespace}`)]).then(() => undefined);
}
