import { type RouteObject, useLocation } from 'react-router';
import NotFoundPage from '../features/errors/not-found-page';
import HomePage from '../features/home/home-page';
import { GuestOnly, RequireMember } from './guards';
import { lazyPage } from './lazy-page';
import { FirstPaintPage, lazyRoute, type PageHeader, useLazyRoutes } from './lazy-route';
import { RouteErrorBoundary } from './route-error';
import { AppShell } from './shell/app-shell';

/**
 * A page route: its own lazily loaded chunk, and an error view that keeps the layout around it;
 * `header`: the page's title and intro show while the chunk loads (lazy-route.tsx).
 */
const page = (
  path: string | undefined,
  load: Parameters<typeof lazyPage>[0],
  header?: PageHeader,
): RouteObject =>
  path === undefined
    ? { index: true, ...lazyRoute(lazyPage(load), header) }
    : { path, ...lazyRoute(lazyPage(load), header) };

/** Every route of spec section 2. */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      // The first paint (issue 14): the home is in the main chunk, with the strings it needs, so a first
      // visit paints it without a second round of requests.
      {
        index: true,
        element: (
          <FirstPaintPage>
            <HomePage />
          </FirstPaintPage>
        ),
      },
      {
        element: <GuestOnly />,
        children: [
          page('login', () => import('../features/auth/login-page')),
          page('register', () => import('../features/auth/register-page')),
        ],
      },
      page('resetpassword', () => import('../features/auth/reset-password-page')),
      page('exchange', () => import('../features/exchanges/exchange-list-page'), {
        key: 'exchange',
        wide: true,
        lines: 8,
      }),
      page('exchangeDetail', () => import('../features/exchanges/exchange-detail-page'), {
        key: 'exchangeDetail',
        lines: 10,
      }),
      page('exchangeNo', () => import('../features/binding/uid-search-page')),
      page('calculator', () => import('../features/calculator/calculator-page'), { key: 'calculator' }),
      page('serviceIntro', () => import('../features/service/service-intro-page')),
      page('serviceIntroMore', () => import('../features/service/service-intro-more-page')),
      page('serviceIntroInvite', () => import('../features/service/service-intro-invite-page')),
      page('invitation', () => import('../features/invite/invitation-page')),
      page('test/introduce', () => import('../features/service/introduce-page')),
      {
        element: <RequireMember />,
        children: [
          page('uidlinking', () => import('../features/binding/uid-linking-page')),
          page('withdrawal', () => import('../features/withdrawal/withdrawal-page')),
          page('exchangeLinkDetail', () => import('../features/cashback/exchange-link-detail-page')),
          {
            path: 'mypage',
            ...lazyRoute(lazyPage(() => import('../features/mypage/my-page-layout'))),
            children: [
              page(undefined, () => import('../features/mypage/my-page-main')),
              page('settings', () => import('../features/mypage/settings-page')),
              page('changepassword', () => import('../features/mypage/change-password-page')),
              page('rewardHistory', () => import('../features/cashback/reward-history-page')),
              page('makefriend', () => import('../features/invite/make-friend-page')),
              page('records', () => import('../features/cashback/records-page')),
              page('point', () => import('../features/points/point-page')),
              page('support', () => import('../features/support/support-list-page')),
              page('support/new', () => import('../features/support/support-new-page')),
              page('support/:id', () => import('../features/support/support-thread-page')),
            ],
          },
          // The operator console (issue 6): its own chunks; the server decides who is an operator.
          {
            path: 'admin',
            ...lazyRoute(lazyPage(() => import('../features/admin/admin-layout'))),
            children: [
              page(undefined, () => import('../features/admin/dashboard-page')),
              page('withdrawals', () => import('../features/admin/withdrawals-page')),
              page('members', () => import('../features/admin/members-page')),
              page('members/:userId', () => import('../features/admin/member-page')),
              page('catalog', () => import('../features/admin/catalog-page')),
              page('catalog/:platId', () => import('../features/admin/exchange-editor-page')),
              page('imports', () => import('../features/admin/imports-page')),
              page('tasks', () => import('../features/admin/tasks-page')),
              page('promotions', () => import('../features/admin/promotions-page')),
              page('audit', () => import('../features/admin/audit-page')),
              page('reconciliation', () => import('../features/admin/reconciliation/reconciliation-page')),
              page('exports', () => import('../features/admin/exports-page')),
              page('alerts', () => import('../features/admin/alerts-page')),
              page('support', () => import('../features/admin/support-queue-page')),
              page('support/:id', () => import('../features/admin/support-request-page')),
              page('corrections', () => import('../features/admin/corrections-page')),
            ],
          },
        ],
      },
      // Static and small: an unknown address answers without a chunk to wait for.
      { path: '*', Component: NotFoundPage },
    ],
  },
];

/**
 * The app's routes in React Router's declarative mode (issue 14): the data router's loaders, actions
 * and route `lazy` were unused but for the pages' chunks, and its code was some 17 KiB of the first
 * paint's gzipped JavaScript. A failure of the shell itself shows the error view alone.
 */
export function AppRoutes() {
  const element = useLazyRoutes(routes);
  return <RouteErrorBoundary location={useLocation()}>{element}</RouteErrorBoundary>;
}
