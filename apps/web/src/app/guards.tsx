import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { isSessionEnding } from '../shared/api/api-client';
import { useIsLoggedIn } from '../shared/hooks/use-is-logged-in';
import { loginRedirectFor, safeRedirectTarget } from '../shared/navigation/login-redirect';

/**
 * While a session is ending (spec: 'Session expired', then /login after 1.5 s) the page stays; the
 * API client then sends the member to /login with this page as `redirect`.
 */
export function RequireMember() {
  const isLoggedIn = useIsLoggedIn();
  const { pathname, search } = useLocation();
  if (!isLoggedIn && !isSessionEnding()) return <Navigate to={loginRedirectFor(pathname, search)} replace />;
  return <Outlet />;
}

/** spec: a logged-in user opening /login or /register goes to the redirect target or /. */
export function GuestOnly() {
  const isLoggedIn = useIsLoggedIn();
  const [params] = useSearchParams();
  if (isLoggedIn) return <Navigate to={safeRedirectTarget(params.get('redirect'))} replace />;
  return <Outlet />;
}
