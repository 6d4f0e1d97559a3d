/**
 * /cippoweb/autologin?token=&refresh_token= (000 2.1, 000 4 Autologin). The console keeps no token in
 * JavaScript, so the query's tokens are handed to POST /default/api/session/adopt (ours), which checks
 * them and sets the HttpOnly session cookies. Then, as the spec says: fetch the user info, choose the
 * first assigned city, go to /cippoweb/top-page/. A refused user gets the deny message and is signed
 * out (000 6); a failure signs out, shows the error or 'Verification failed, please login again' and
 * goes to `/` (which, signed out, is /login).
 */
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ADOPT_PATH, fetchAccount, firstAssignedCity, MEMBER_LANDING, signInDenial, userInfoFailure } from '../providers/account';
import { signOutWith } from '../providers/auth-provider';
import { noteFreshTokens, request, startRefreshTimer } from '../providers/http';
import { loadManifests } from '../providers/manifests';
import { setCity } from '../providers/session';
import { Loading } from '../components/loading';

/** One hand-off per token pair, however often the effect runs (StrictMode): answers the path to go to, or the failure. */
const started = new Map<string, Promise<{ to: string } | { failure: string }>>();

function adopt(token: string, refreshToken: string): Promise<{ to: string } | { failure: string }> {
  const key = `${token} ${refreshToken}`;
  let run = started.get(key);
  if (!run) {
    run = (async () => {
      try {
        await request(ADOPT_PATH, { method: 'POST', body: { token, refresh_token: refreshToken }, refreshOn401: false });
        noteFreshTokens();
        const [profile] = await Promise.all([fetchAccount(), loadManifests()]);
        const city = firstAssignedCity(profile);
        const denial = signInDenial(profile, city);
        if (denial) return { failure: denial };
        setCity(city);
        startRefreshTimer();
        return { to: MEMBER_LANDING };
      } catch (e) {
        return { failure: userInfoFailure(e) };
      }
    })();
    started.set(key, run);
  }
  return run;
}

export function AutologinPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const refreshToken = params.get('refresh_token') ?? '';

  useEffect(() => {
    let live = true;
    void adopt(token, refreshToken).then(async (outcome) => {
      if (!live) return;
      if ('to' in outcome) {
          navigate(outcome.to, { replace: true });
        return;
      }
      // The login page shows the reason once (signOutWith keeps it across the reload). A full load of
      // `/` starts the signed-out console afresh, which sends it on to /login.
      await signOutWith(outcome.failure);
      globalThis.location.replace('/');
    });
    return () => {
      live = false;
    };
  }, [token, refreshToken, navigate]);

  return <Loading />;
}
