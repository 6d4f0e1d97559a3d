/**
 * The session check of the open pages that send a signed-in user on (the login page, 000 2.1): the
 * auth provider's `check` (GET /default/api/users/account; a 503 shows the maintenance page) asked
 * once when the page opens. The open pages live outside Refine (app.tsx), so this stands in for
 * Refine's `<Authenticated>` there.
 */
import { useEffect, useState } from 'react';
import { authProvider } from '../providers/auth-provider';

/** 'checking' until the check answers, then whether a session is there. */
export type SessionState = 'checking' | 'signed-in' | 'signed-out';

/** The state of the session, checked once per mount. */
export function useSessionCheck(): SessionState {
  const [state, setState] = useState<SessionState>('checking');
  useEffect(() => {
    let live = true;
    authProvider.check().then(
      (r) => live && setState(r.authenticated ? 'signed-in' : 'signed-out'),
      () => live && setState('signed-out'),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
