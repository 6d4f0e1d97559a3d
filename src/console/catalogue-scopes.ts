/**
 * Which part of a language's catalogue each namespace file of locales/<language>/ belongs to: the
 * part is what src/console/i18n.ts loads at once, and what the build puts in one chunk per language
 * (scripts/lib/console-chunks.ts). No side effects, so the build can read it.
 */

/**
 * Namespaces the pages outside a city need (login, /city, /401, /404, open views, sign-in flows,
 * the error catalogue of 001 8, the maintenance page; `security`: the sign-in's second step and the
 * profile's security sections). Every other namespace is a console one.
 */
export const BOOT_NAMESPACES: readonly string[] = ['common', 'access', 'console', 'shell', 'security'];

/**
 * Namespaces of one hand-written page, loaded only when that page opens (`loadPageCatalogue` of
 * pages/page-catalogue.ts), not with the city (docs/performance.md 'What each page loads'):
 * `imports`, the CSV import pages; `statistics`, the statistics page; `chat`, the chat pages.
 */
export const PAGE_NAMESPACES: readonly string[] = ['imports', 'statistics', 'chat'];

/** Which part of a language's catalogue: the boot namespaces, one page's namespace, or all the others. */
export type CatalogueScope = 'boot' | 'console' | `page:${string}`;

/** The part of the catalogue a namespace belongs to (`common` → 'boot', `chat` → 'page:chat', `lists` → 'console'). */
export function scopeOf(namespace: string): CatalogueScope {
  if (BOOT_NAMESPACES.includes(namespace)) return 'boot';
  return PAGE_NAMESPACES.includes(namespace) ? `page:${namespace}` : 'console';
}
