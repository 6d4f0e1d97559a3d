/** The session (profile, chosen city, signed-out flag, chat count) as React state, one field at a time. */
import { useSyncExternalStore } from 'react';
import { getSession, subscribe, type SessionState } from '../providers/session';

/**
 * One field of the session (000 4): the component renders again only when that field changes (by
 * identity). A change of the session renders every component that reads it at once (a synchronous
 * render), so each reads only what it shows: a new chat count re-renders the chat badge, not the
 * console's shell and the open pages.
 */
export function useSessionValue<K extends keyof SessionState>(key: K): SessionState[K] {
  const read = () => getSession()[key];
  return useSyncExternalStore(subscribe, read, read);
}
