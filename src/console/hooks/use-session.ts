/** The session (profile, chosen city, signed-out flag) as React state. */
import { useSyncExternalStore } from 'react';
import { getSession, subscribe, type SessionState } from '../providers/session';

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSession, getSession);
}
