/**
 * One open tab's page, kept alive (000 2.3 open-page tabs keeping their state): the page renders into
 * a container of its own through a portal, and only the active tab's container is attached to the
 * document (in this component's slot). An inactive tab's page keeps its React state (filters, sort,
 * page, unsaved input) and its DOM, but is out of the document: no duplicate ids, nothing a screen
 * reader or a test finds twice. An inactive page may not navigate (a list syncing its filters to the
 * URL after its data arrived would take the window away from the active tab): its navigator drops
 * push and replace.
 */
import { useContext, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { UNSAFE_NavigationContext as NavigationContext } from 'react-router';

export function KeptPage({ active, tabKey, children }: { active: boolean; tabKey: string; children: ReactNode }) {
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
        push: (...args: Parameters<typeof n.push>) => activeRef.current && n.push(...args),
        replace: (...args: Parameters<typeof n.replace>) => activeRef.current && n.replace(...args),
      },
    };
  }, [outer]);

  return (
    <>
      {active && <div ref={slot} />}
      {createPortal(<NavigationContext.Provider value={navigation}>{children}</NavigationContext.Provider>, node)}
    </>
  );
}
