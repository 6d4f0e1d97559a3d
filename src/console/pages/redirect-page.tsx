/** /redirect/:path* (000 2.1): goes to /:path* with the same query, replacing the history entry. */
import { Navigate, useLocation, useParams } from 'react-router';

export function RedirectPage() {
  const { '*': rest = '' } = useParams();
  const { search, hash } = useLocation();
  return <Navigate to={`/${rest}${search}${hash}`} replace />;
}
