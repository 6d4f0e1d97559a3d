/**
 * /mynumber (000 2.1; 001 7.1 my-number callback): the national ID-card sign-in comes back here with
 * `code`, `error`, `error_description` and `state` in the query. The page posts them to
 * POST /default/api/users/mynumber/callback (ours: the spec shows no path) and goes to the address
 * answered (`data`, a path of this console). Errors are ignored (001 7.1): the page then goes to `/`.
 */
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { MYNUMBER_CALLBACK_PATH, safeLocalPath } from '../providers/account';
import { request } from '../providers/http';
import { Loading } from '../components/loading';

const FIELDS = ['code', 'error', 'error_description', 'state'] as const;

/** One post per query, however often the effect runs (React's StrictMode runs it twice): a state is single-use. */
const posted = new Map<string, Promise<string>>();

/** Posts the callback once and answers where to go (`/` when anything fails). */
function postCallback(query: string): Promise<string> {
  let sent = posted.get(query);
  if (!sent) {
    const values = new URLSearchParams(query);
    const body = Object.fromEntries(FIELDS.map((f) => [f, values.get(f) ?? '']));
    sent = request<{ data?: unknown }>(MYNUMBER_CALLBACK_PATH, { method: 'POST', body, refreshOn401: false })
      .then((answer) => safeLocalPath(typeof answer?.data === 'string' ? answer.data : null) ?? '/')
      .catch(() => '/');
    posted.set(query, sent);
  }
  return sent;
}

export function MyNumberPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const query = params.toString();

  useEffect(() => {
    let live = true;
    void postCallback(query).then((to) => {
      if (live) navigate(to, { replace: true });
    });
    return () => {
      live = false;
    };
  }, [query, navigate]);

  return <Loading />;
}
