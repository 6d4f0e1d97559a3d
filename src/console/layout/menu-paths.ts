/**
 * Where the menu entries of a city lead and which entry a path belongs to (000 2.3): the sidebar's
 * links, the breadcrumb (always starting at the dashboard), the titles of the open-page tabs and the
 * command palette's pages all come from here. Pure functions.
 */
import type { MenuEntry } from '@/shared/manifest';

/** The path of a menu entry in a city: `/{city}/{route | resource | page | key}`. */
export function entryPath(city: string, e: MenuEntry): string {
  return `/${encodeURIComponent(city)}/${(e.route ?? e.resource ?? e.page ?? e.key).replace(/^\/+|\/+$/g, '')}`;
}

/** A leaf entry with its path and the titles (i18n keys) of its groups, outermost first. */
export interface PageLink {
  key: string;
  path: string;
  /** i18n keys: the groups' titles, then the entry's own. */
  titles: string[];
  icon: string;
}

/** Every leaf entry of a menu (groups flattened), in menu order. */
export function pageLinks(city: string, entries: readonly MenuEntry[]): PageLink[] {
  const out: PageLink[] = [];
  const walk = (list: readonly MenuEntry[], groups: string[]) => {
    for (const e of list) {
      if (e.children?.length) walk(e.children, [...groups, e.title]);
      else out.push({ key: e.key, path: entryPath(city, e), titles: [...groups, e.title], icon: e.icon });
    }
  };
  walk(entries, []);
  return out;
}

/** What a path is: the menu page it belongs to (longest matching path) and the sub-page below it. */
export interface PathPlace {
  link: PageLink | null;
  /** `create`, `edit`, `show`, `clone` (複製), `trash` (ごみ箱), or null on the entry's own page (or an unknown sub-path). */
  action: 'create' | 'edit' | 'show' | 'clone' | 'trash' | null;
}

/**
 * The catalogue key of a sub-page's title, after its entry's in the tabs bar and the breadcrumb:
 * `actions.<action>` (新規作成, 編集, 詳細, 複製), `history.bin.open` for the recycle bin (ごみ箱).
 */
export function subPageTitleKey(action: NonNullable<PathPlace['action']>): string {
  return action === 'trash' ? 'history.bin.open' : `actions.${action}`;
}

/** The menu page a pathname belongs to (`/kobe/news/edit/3` → the news entry, `edit`). */
export function placeOf(links: readonly PageLink[], pathname: string): PathPlace {
  const path = pathname.replace(/\/+$/, '');
  let best: PageLink | null = null;
  for (const l of links) {
    if ((path === l.path || path.startsWith(`${l.path}/`)) && l.path.length > (best?.path.length ?? 0)) best = l;
  }
  if (!best) return { link: null, action: null };
  const rest = path.slice(best.path.length + 1).split('/')[0];
  return { link: best, action: rest === 'create' || rest === 'edit' || rest === 'show' || rest === 'clone' || rest === 'trash' ? rest : null };
}

/** The dashboard's path in a city: where the breadcrumb starts and the home button leads. */
export function dashboardPath(city: string): string {
  return `/${encodeURIComponent(city)}/dashboard`;
}

/** The unread badge of the chat entry: nothing for 0, the count up to 99, then '99+' (000 2.3). */
export function badgeText(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > 99 ? '99+' : String(Math.floor(count));
}
