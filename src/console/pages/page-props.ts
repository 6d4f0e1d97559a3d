/**
 * What a hand-written page is given (src/shared/pages.ts PAGES; ./page-components.ts loads the
 * pages): the menu entry it was opened by. A module of its own, below the pages' lazy table, so a
 * page that names its props does not import the table that imports it (docs/architecture.md
 * 'The picture').
 */
import type { MenuEntry } from '@/shared/manifest';

/** What a hand-written page is given: the menu entry it was opened by. */
export interface PageProps {
  entry?: MenuEntry;
}
