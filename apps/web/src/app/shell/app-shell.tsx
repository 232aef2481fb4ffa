import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { markFirstPaint, onceFirstPainted } from '../../shared/after-first-paint';
import { track } from '../../shared/analytics/track';
import { setApiNavigator } from '../../shared/api/api-client';
import { useIsWide } from '../../shared/hooks/use-is-wide';
import { Skeleton } from '../../shared/ui/skeleton';
import { Footer } from './footer';
import { MobileHeader, TabBar } from './mobile-bars';
import { TopBar } from './top-bar';

/** The layout around every page: desktop top bar or mobile header and tab bar, page, footer. */
export function AppShell() {
  const isWide = useIsWide();
  const location = useLocation();
  const { pathname, search } = location;
  const navigate = useNavigate();
  const here = useRef(location);
  // The first page's frame (the home, or a lazy page's header or skeleton): what waits for it follows.
  useEffect(markFirstPaint, []);

  useEffect(() => {
    here.current = location;
  }, [location]);
  useEffect(
    () =>
      setApiNavigator({
        navigate: (to) => navigate(to),
        location: () => ({ pathname: here.current.pathname, search: here.current.search }),
      }),
    [navigate],
  );

  // spec section 2: scroll to the top on each route change. A new query is a new page too
  // (/exchangeDetail?id=1 to ?id=2 shows another exchange), so the address decides, not the path alone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the address changing is what scrolls
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);

  // spec section 2: one page-view event per route (the event names the path, not the query). The
  // first one follows the first paint, which it would otherwise share the network with.
  useEffect(() => {
    onceFirstPainted(() => track('page_view', pathname));
  }, [pathname]);

  return (
    <div className={isWide ? 'shell shell-desktop' : 'shell shell-mobile'}>
      {isWide ? <TopBar /> : <MobileHeader />}
      <main id="main" className="main">
        <Suspense fallback={<Skeleton />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      {isWide ? null : <TabBar />}
    </div>
  );
}
