import { State } from '@elex/contract';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { ApiError } from '../../shared/api/api-client';
import { Skeleton } from '../../shared/ui/skeleton';
import { useWhoami } from './api/get-whoami';
import { Forbidden } from './components/forbidden';
import { LoadError } from './components/load-error';
import './admin.css';

const SECTIONS = [
  { path: '/admin', key: 'dashboard', end: true },
  { path: '/admin/withdrawals', key: 'withdrawals' },
  { path: '/admin/support', key: 'support' },
  { path: '/admin/members', key: 'members' },
  { path: '/admin/corrections', key: 'corrections' },
  { path: '/admin/catalog', key: 'catalog' },
  { path: '/admin/imports', key: 'imports' },
  { path: '/admin/reconciliation', key: 'reconciliation' },
  { path: '/admin/tasks', key: 'tasks' },
  { path: '/admin/promotions', key: 'promotions' },
  { path: '/admin/audit', key: 'audit' },
  { path: '/admin/exports', key: 'exports' },
  { path: '/admin/alerts', key: 'alerts' },
] as const;

/**
 * /admin and its pages (issue 6). The server decides who is an operator: a member hears 1003 and sees
 * the forbidden page; a visitor never gets here (the member guard sends them to /login). Every
 * console call checks the role again on the server, so this page guards nothing by itself.
 */
export default function AdminLayout() {
  const { t } = useTranslation();
  const whoami = useWhoami();
  if (whoami.isPending) return <Skeleton lines={4} />;
  if (whoami.isError) {
    const error = whoami.error;
    if (error instanceof ApiError && error.state === State.Forbidden) return <Forbidden />;
    // An expired session is being handled by the API client (toast, then /login).
    if (error instanceof ApiError && error.kind === 'session') return <Skeleton lines={4} />;
    return <LoadError onRetry={() => void whoami.refetch()} />;
  }
  return (
    <div className="admin-layout">
      <div className="admin-sidebar">
        <p className="admin-badge">
          <span>{t('admin.console')}</span>
          <span className="muted admin-operator">{whoami.data.email}</span>
        </p>
        <nav aria-label={t('admin.console')} className="section-nav admin-nav">
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.key}>
                <NavLink to={section.path} end={'end' in section} className="section-link">
                  {t(`admin.nav.${section.key}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="admin-content">
        <Suspense fallback={<Skeleton lines={4} />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
