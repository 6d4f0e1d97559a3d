/**
 * The open-page tabs (000 2.3 'Open-page tabs: refresh, close, close others, close all'; 000 4
 * 'visited and cached tab views are tracked'): every page opened (by pathname) becomes a tab that
 * remembers its last location (query included); the layout keeps each tab's page rendered (out of
 * the document while another is active, kept-page.tsx), so filters, sort, page, scroll and unsaved
 * input survive. The dashboard tab stays (close all keeps it). At most MAX_TABS: the oldest inactive
 * tab goes first.
 * A create or edit tab whose form was saved (a successful mutation while it was active) closes when
 * the user leaves it (after a save the form goes to its list): a new create starts empty.
 * Closing or refreshing a tab while Refine's unsaved-changes flag (`useWarnAboutChange().warnWhen`)
 * is up asks first (use-unsaved-confirm.ts; the flag is one for the whole console, not per tab).
 *
 * A tab's location comes from two sources. The router's location (`useLocation`) adds and updates
 * tabs; but React Router 7's BrowserRouter applies each history change in a React transition, which
 * commits late while a heavy page renders, and a transition overtaken by the next navigation is
 * never seen on its own: a list that writes its query (Refine `syncWithLocation`, a `replace`) and is
 * left at once would keep its bare path. So a kept page's own navigations within its tab are also
 * recorded as they are made (`stay`, called by kept-page.tsx), and the router's location is applied
 * only when it changes (never re-applied over such a newer record).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, type Location, type Path } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useUnsavedConfirm } from './use-unsaved-confirm';

/** Most tabs kept open. */
export const MAX_TABS = 12;

export interface PageTab {
  /** The pathname (without a trailing slash). */
  key: string;
  /** The last location seen in this tab: what its page renders and where activating it goes. */
  location: Location;
  /** Raised by refresh: the page is mounted anew. */
  version: number;
}

export function tabKeyOf(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

/**
 * The tabs after visiting `location` (added at the end, or its tab's location updated). `skip` is a
 * path that gets no tab (the city's root, which only redirects to the dashboard).
 */
export function visit(tabs: readonly PageTab[], location: Location, pinned: string, skip = ''): PageTab[] {
  const key = tabKeyOf(location.pathname);
  if (key === skip) return tabs as PageTab[];
  const i = tabs.findIndex((t) => t.key === key);
  if (i >= 0) {
    if (tabs[i].location === location) return tabs as PageTab[];
    const next = [...tabs];
    next[i] = { ...tabs[i], location };
    return next;
  }
  let next = [...tabs, { key, location, version: 0 }];
  while (next.length > MAX_TABS) {
    const drop = next.findIndex((t) => t.key !== key && t.key !== pinned);
    if (drop < 0) break;
    next = next.filter((_, j) => j !== drop);
  }
  return next;
}

/**
 * The tabs after the page of tab `key` navigated to `path` itself (its list writing its query): the
 * tab's location becomes `path` when it stays in that tab; any other path, or an unknown tab, leaves
 * the tabs as they are (the router's location handles moves to another tab).
 */
export function stay(tabs: readonly PageTab[], key: string, path: Path, state: unknown = null): PageTab[] {
  const i = tabs.findIndex((t) => t.key === key);
  if (i < 0 || tabKeyOf(path.pathname) !== key) return tabs as PageTab[];
  const was = tabs[i].location;
  if (was.pathname === path.pathname && was.search === path.search && was.hash === path.hash && was.state === state) return tabs as PageTab[];
  const next = [...tabs];
  next[i] = { ...tabs[i], location: { pathname: path.pathname, search: path.search, hash: path.hash, state, key: `${was.key}~` } };
  return next;
}

/** Whether a path is a create, edit or 複製 form's (`…/create`, `…/edit/:id`, `…/clone/:id`). */
export function isFormPath(key: string): boolean {
  return /\/(create|(edit|clone)\/[^/]+)$/.test(key);
}

function hrefOf(l: Location): string {
  return `${l.pathname}${l.search}${l.hash}`;
}

export interface PageTabs {
  tabs: PageTab[];
  activeKey: string;
  /** The tab that may not be closed (the dashboard). */
  pinned: string;
  activate(key: string): void;
  /** Records that the page of tab `key` navigated itself to `path` (see `stay`). */
  stay(key: string, path: Path, state?: unknown): void;
  refresh(key: string): void;
  close(key: string): void;
  closeOthers(key: string): void;
  closeAll(): void;
}

export function usePageTabs(pinned: string, skip: string): PageTabs {
  const location = useLocation();
  const navigate = useNavigate();
  // The tabs, and the router location last applied to them (applied once: see the module's note).
  const [stored, setStored] = useState(() => ({ tabs: visit([], location, pinned, skip), seen: location }));
  const setTabs = useCallback((tabs: PageTab[] | ((list: PageTab[]) => PageTab[])) => {
    setStored((s) => ({ ...s, tabs: typeof tabs === 'function' ? tabs(s.tabs) : tabs }));
  }, []);
  const activeKey = tabKeyOf(location.pathname);
  // The current location has its tab in this very render (no blank frame before the effect).
  const tabs = useMemo(
    () => (stored.seen === location ? stored.tabs : visit(stored.tabs, location, pinned, skip)),
    [stored, location, pinned, skip],
  );

  // A successful mutation (a save) in the active tab; a form tab saved so closes when left.
  const queryClient = useQueryClient();
  const activeRef = useRef(activeKey);
  const savedIn = useRef<string | null>(null);
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((e) => {
        if (e.type === 'updated' && e.mutation.state.status === 'success') savedIn.current = activeRef.current;
      }),
    [queryClient],
  );

  useEffect(() => {
    const saved = savedIn.current;
    const key = tabKeyOf(location.pathname);
    activeRef.current = key;
    if (saved !== key) savedIn.current = null;
    setStored((s) => {
      if (s.seen === location) return s;
      const left = saved && saved !== key && isFormPath(saved) ? s.tabs.filter((x) => x.key !== saved) : s.tabs;
      return { tabs: visit(left, location, pinned, skip), seen: location };
    });
  }, [location, pinned, skip]);

  /**
   * Runs `go` at once, or after a confirmation when a form has unsaved input and `affected` (the
   * keys of the tabs closed or reloaded) holds a form tab: only then is input lost.
   */
  const confirmLoss = useUnsavedConfirm();
  const guarded = useCallback((go: () => void, affected: readonly string[]) => confirmLoss(go, affected.some(isFormPath)), [confirmLoss]);

  /** Keeps the tabs `keep` accepts; when the active one goes, goes to `prefer` (else the last left). */
  const keepOnly = useCallback(
    (keep: (tab: PageTab) => boolean, prefer?: string) => {
      const left = tabs.filter(keep);
      setTabs(left);
      if (!left.some((x) => x.key === activeKey)) {
        const target = left.find((x) => x.key === prefer) ?? left[left.length - 1];
        navigate(target ? hrefOf(target.location) : pinned);
      }
    },
    [tabs, activeKey, navigate, pinned, setTabs],
  );

  const stayIn = useCallback((key: string, path: Path, state: unknown = null) => setTabs((list) => stay(list, key, path, state)), [setTabs]);

  return {
    tabs,
    activeKey,
    pinned,
    activate: (key) => {
      const tab = tabs.find((x) => x.key === key);
      if (tab && key !== activeKey) navigate(hrefOf(tab.location));
    },
    stay: stayIn,
    refresh: (key) => guarded(() => setTabs((list) => list.map((x) => (x.key === key ? { ...x, version: x.version + 1 } : x))), [key]),
    close: (key) => {
      if (key === pinned) return;
      guarded(() => {
        const i = tabs.findIndex((x) => x.key === key);
        const left = tabs.filter((x) => x.key !== key);
        setTabs(left);
        if (key === activeKey) {
          const target = left[Math.min(i, left.length - 1)] ?? left[left.length - 1];
          navigate(target ? hrefOf(target.location) : pinned);
        }
      }, [key]);
    },
    closeOthers: (key) =>
      guarded(
        () => keepOnly((x) => x.key === key || x.key === pinned, key),
        tabs.filter((x) => x.key !== key && x.key !== pinned).map((x) => x.key),
      ),
    closeAll: () =>
      guarded(
        () => keepOnly((x) => x.key === pinned),
        tabs.filter((x) => x.key !== pinned).map((x) => x.key),
      ),
  };
}
