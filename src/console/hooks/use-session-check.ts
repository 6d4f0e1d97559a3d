/**
 * The session check of the open pages that send a signed-in user on (the login page, 000 2.1): who
 * the cookies name (GET /default/api/users/whoami, which never answers 401, so a visitor's browser
 * logs no failed request), then, when there may be a session (a user, or a refresh-token cookie
 * whose access token expired), the auth provider's `check` (the user info, refreshed once on a 401;
 * a 503 shows the maintenance page). Asked once when the page opens. The open pages live outside
 * Refine (app.tsx), so this stands in for Refine's `<Authenticated>` there.
 */
import { useEffect, useState } from 'react';
import { WHOAMI_PATH } from '../providers/account';
import { authProvider } from '../providers/auth-provider';
import { request } from '../providers/http';

/** Whether the auth provider's check says signed in; false at once when the cookies name nobody. */
async function signedIn(): Promise<boolean> {
  const who = await request<{ id: number | null; refreshable?: boolean }>(WHOAMI_PATH, { refreshOn401: false });
  if (who.id === null && !who.refreshable) return false;
  return (await authProvider.check()).authenticated;
}

/** 'checking' until the check answers, then whether a session is there. */
export type SessionState = 'checking' | 'signed-in' | 'signed-out';

/** The state of the session, checked once per mount. */
export function useSessionCheck(): SessionState {
  const [state, setState] = useState<SessionState>('checking');
  useEffect(() => {
    let live = true;
    signedIn().then(
      (yes) => live && setState(yes ? 'signed-in' : 'signed-out'),
      () => live && setState('signed-out'),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
