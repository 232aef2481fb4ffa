import { PATHS } from '@elex/contract';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { isSessionEnding } from '../shared/api/api-client';
import { useIsLoggedIn } from '../shared/hooks/use-is-logged-in';
import { loginRedirectFor, safeRedirectTarget } from '../shared/navigation/login-redirect';
import { storage } from '../shared/storage';

/**
 * While a session is ending (spec: 'Session expired', then /login after 1.5 s) the page stays; the
 * API client then sends the member to /login with this page as `redirect`.
 */
export function RequireMember() {
  const isLoggedIn = useIsLoggedIn();
  const { pathname, search } = useLocation();
  if (isLoggedIn || isSessionEnding()) return <Outlet />;
  // A member who logged out or deleted the account from a member page goes home, whichever renders
  // first: the page's own navigation home or this guard reacting to the token it removed.
  if (storage.sessionEndedByMember()) return <Navigate to={PATHS.home} replace />;
  return <Navigate to={loginRedirectFor(pathname, search)} replace />;
}

/** spec: a logged-in user opening /login or /register goes to the redirect target or /. */
export function GuestOnly() {
  const isLoggedIn = useIsLoggedIn();
  const [params] = useSearchParams();
  if (isLoggedIn) return <Navigate to={safeRedirectTarget(params.get('redirect'))} replace />;
  return <Outlet />;
}
