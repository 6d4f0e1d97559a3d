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
 * is up asks first (the flag is one for the whole console, not per tab).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useWarnAboutChange } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import { App as AntdApp } from 'antd';

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

/** Whether a path is a create or edit form's (`…/create`, `…/edit/:id`). */
export function isFormPath(key: string): boolean {
  return /\/(create|edit\/[^/]+)$/.test(key);
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
  refresh(key: string): void;
  close(key: string): void;
  closeOthers(key: string): void;
  closeAll(): void;
}

export function usePageTabs(pinned: string, skip: string): PageTabs {
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const { modal } = AntdApp.useApp();
  const { warnWhen, setWarnWhen } = useWarnAboutChange();
  const [stored, setTabs] = useState<PageTab[]>(() => visit([], location, pinned, skip));
  const activeKey = tabKeyOf(location.pathname);
  // The current location has its tab in this very render (no blank frame before the effect).
  const tabs = useMemo(() => visit(stored, location, pinned, skip), [stored, location, pinned, skip]);

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
    setTabs((list) => {
      const left = saved && saved !== key && isFormPath(saved) ? list.filter((x) => x.key !== saved) : list;
      return visit(left, location, pinned, skip);
    });
  }, [location, pinned, skip]);

  /**
   * Runs `go` at once, or after a confirmation when a form has unsaved input and `affected` (the
   * keys of the tabs closed or reloaded) holds a form tab: only then is input lost.
   */
  const guarded = useCallback(
    (go: () => void, affected: readonly string[]) => {
      if (!warnWhen || !affected.some(isFormPath)) return go();
      modal.confirm({
        title: t('shell.tabs.unsavedTitle'),
        content: t('shell.tabs.unsaved'),
        okText: t('shell.tabs.discard'),
        cancelText: t('actions.cancel'),
        onOk: () => {
          setWarnWhen(false);
          go();
        },
      });
    },
    [warnWhen, setWarnWhen, modal, t],
  );

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
    [tabs, activeKey, navigate, pinned],
  );

  return {
    tabs,
    activeKey,
    pinned,
    activate: (key) => {
      const tab = tabs.find((x) => x.key === key);
      if (tab && key !== activeKey) navigate(hrefOf(tab.location));
    },
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
