/**
 * /auth-redirect (000 2.1): where a third-party sign-in hands the browser back. The session is in the
 * cookies the hand-off set (the console never sees a token), so the page asks who is signed in: with
 * a session it goes to the `redirect` query path (same origin only) or the root entry `/`; without
 * one, or with an `error` query, to /login.
 */
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { fetchAccount, safeLocalPath } from '../providers/account';
import { Loading } from '../components/loading';

export function AuthRedirectPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const failed = params.has('error');

  useEffect(() => {
    let live = true;
    const go = async () => {
      const signedIn = !failed && (await fetchAccount().then(() => true, () => false));
      if (!live) return;
      navigate(signedIn ? (safeLocalPath(redirect) ?? '/') : '/login', { replace: true });
    };
    void go();
    return () => {
      live = false;
    };
  }, [failed, redirect, navigate]);

  return <Loading />;
}
