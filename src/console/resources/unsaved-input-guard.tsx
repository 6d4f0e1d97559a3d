/**
 * The browser half of the unsaved-changes guard (docs/architecture.md 'Beyond the spec'): while a generated form holds input not
 * saved (Refine's `warnWhen`, set by ./resource-form), closing or reloading the browser tab asks
 * first (`beforeunload`). In-app navigation loses nothing (the open-page tabs keep a form's input,
 * src/console/layout/use-page-tabs.ts), and closing or refreshing such a tab asks there.
 */
import { useEffect } from 'react';
import { useWarnAboutChange } from '@refinedev/core';

export function UnsavedInputGuard() {
  const { warnWhen } = useWarnAboutChange();
  useEffect(() => {
    if (!warnWhen) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [warnWhen]);
  return null;
}
