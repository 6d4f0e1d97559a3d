/**
 * One open tab's page, kept alive (000 2.3 open-page tabs keeping their state): the page renders into
 * a container of its own through a portal, and only the active tab's container is attached to the
 * document (in this component's slot). An inactive tab's page keeps its React state (filters, sort,
 * page, unsaved input) and its DOM, but is out of the document: no duplicate ids, nothing a screen
 * reader or a test finds twice. An inactive page may not navigate (a list syncing its filters to the
 * URL after its data arrived would take the window away from the active tab): its navigator drops
 * push and replace. The active page's own navigations are reported (`onNavigate`) as they are made,
 * before the router's location catches up (it commits in a transition): the tabs record where a
 * list wrote its query even when the user leaves the tab at once (use-page-tabs.ts `stay`).
 */
import { useContext, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { parsePath, UNSAFE_LocationContext as LocationContext, UNSAFE_NavigationContext as NavigationContext, UNSAFE_RouteContext as RouteContext, type Path, type To } from 'react-router';

export interface KeptPageProps {
  active: boolean;
  tabKey: string;
  /** Called with each location the active page navigates to (push or replace) and its state. */
  onNavigate?: (path: Path, state: unknown) => void;
  children: ReactNode;
}

/** The full path of a navigation target (`useNavigate` passes resolved paths; a string is parsed). */
function pathOf(to: To): Path {
  const p = typeof to === 'string' ? parsePath(to) : to;
  return { pathname: p.pathname ?? '/', search: p.search ?? '', hash: p.hash ?? '' };
}

export function KeptPage({ active, tabKey, onNavigate, children }: KeptPageProps) {
  const [node] = useState(() => {
    const div = document.createElement('div');
    div.dataset.testid = 'tab-page';
    div.dataset.tab = tabKey;
    return div;
  });
  const slot = useRef<HTMLDivElement>(null);
  const activeRef = useRef(active);
  useLayoutEffect(() => {
    activeRef.current = active;
    if (!active || !slot.current) return;
    slot.current.appendChild(node);
    return () => node.remove();
  }, [active, node]);

  const report = useRef(onNavigate);
  // eslint-disable-next-line react-hooks/refs -- the latest value kept for callbacks that run after render; the React Compiler leaves this function as written
  report.current = onNavigate;

  // The window's location and the enclosing route's match (`/:city/*`) as they were while this tab
  // was active. Both change with every navigation; handed on, they re-rendered each open tab's whole
  // page per click (the tab's own <Routes location> reads them, and so does every useParams,
  // useLocation and useNavigate below it).
  const outerLocation = useContext(LocationContext);
  const outerRoute = useContext(RouteContext);
  const [kept, setKept] = useState({ location: outerLocation, route: outerRoute });
  if (active && (kept.location !== outerLocation || kept.route !== outerRoute)) setKept({ location: outerLocation, route: outerRoute });

  const outer = useContext(NavigationContext);
  const navigation = useMemo(() => {
    const n = outer.navigator;
    return {
      ...outer,
      navigator: {
        createHref: n.createHref.bind(n),
        createURL: n.createURL?.bind(n),
        encodeLocation: n.encodeLocation?.bind(n),
        go: (delta: number) => activeRef.current && n.go(delta),
        push: (...args: Parameters<typeof n.push>) => {
          if (!activeRef.current) return;
          n.push(...args);
          report.current?.(pathOf(args[0]), args[1] ?? null);
        },
        replace: (...args: Parameters<typeof n.replace>) => {
          if (!activeRef.current) return;
          n.replace(...args);
          report.current?.(pathOf(args[0]), args[1] ?? null);
        },
      },
    };
  }, [outer]);

  return (
    <>
      {active && <div ref={slot} />}
      {createPortal(
        <NavigationContext.Provider value={navigation}>
          <LocationContext.Provider value={kept.location}>
            <RouteContext.Provider value={kept.route}>{children}</RouteContext.Provider>
          </LocationContext.Provider>
        </NavigationContext.Provider>,
        node,
      )}
    </>
  );
}
