import { Search } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useIsWide } from '../../shared/hooks/use-is-wide';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { useSearchMembers } from './api/search-members';
import { LoadError } from './components/load-error';
import { ScrollRegion } from './components/scroll-region';
import { formatTime } from './format';

const PAGE_SIZE = 20;

/**
 * /admin/members?q=&suspended=1: search by e-mail (or part of it), user code, invite code or UID;
 * the suspended filter lists suspended members, with or without a search text.
 */
export default function MembersPage() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const suspendedOnly = params.get('suspended') === '1';
  const [text, setText] = useState(query);
  const [page, setPage] = useState(1);
  const results = useSearchMembers(query, suspendedOnly, page, PAGE_SIZE);
  const searching = Boolean(query) || suspendedOnly;

  const search = (nextText: string, suspended: boolean) => {
    setPage(1);
    setParams({
      ...(nextText.trim() ? { q: nextText.trim() } : {}),
      ...(suspended ? { suspended: '1' } : {}),
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    search(text, suspendedOnly);
  };

  return (
    <Page title={t('admin.members.title')} intro={t('admin.members.intro')} wide>
      <form className="input-row admin-search" role="search" onSubmit={submit}>
        <label htmlFor="member-search" className="visually-hidden">
          {t('admin.members.searchLabel')}
        </label>
        <input
          id="member-search"
          className="input"
          type="search"
          value={text}
          placeholder={t('admin.members.searchPlaceholder')}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button button-primary" disabled={!text.trim() && !suspendedOnly}>
          <Search size={16} aria-hidden="true" />
          {t('admin.members.search')}
        </button>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={suspendedOnly}
            onChange={(event) => search(text, event.target.checked)}
          />
          <span>{t('admin.lifecycle.suspendedOnly')}</span>
        </label>
      </form>
      {!searching ? null : results.isError && !results.data ? (
        <LoadError onRetry={() => void results.refetch()} />
      ) : !results.data ? (
        <Skeleton lines={3} />
      ) : results.data.rows.length === 0 ? (
        <p className="card muted">
          {query ? t('admin.members.noResults', { query }) : t('admin.members.noSuspended')}
        </p>
      ) : isWide ? (
        <ScrollRegion label={t('admin.members.results')}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.members.email')}</th>
                <th scope="col">{t('admin.members.userCode')}</th>
                <th scope="col">{t('admin.members.joined')}</th>
                <th scope="col" className="numeric">
                  {t('admin.members.liveBindings')}
                </th>
                <th scope="col">{t('admin.members.state')}</th>
              </tr>
            </thead>
            <tbody>
              {results.data.rows.map((member) => (
                <tr key={member.userId}>
                  <td>
                    <Link to={`/admin/members/${member.userId}`}>
                      {member.email ?? t('admin.members.deletedAccount')}
                    </Link>
                  </td>
                  <td className="mono">{member.userCode}</td>
                  <td>{formatTime(member.createdAt)}</td>
                  <td className="numeric">{member.liveBindings}</td>
                  <td>
                    {member.isOperator ? (
                      <span className="status status-completed">{t('admin.members.operator')}</span>
                    ) : null}
                    {member.deletedAt ? (
                      <span className="status status-failed">{t('admin.members.deleted')}</span>
                    ) : null}
                    {member.suspendedAt ? (
                      <span className="status status-failed">{t('admin.lifecycle.suspended')}</span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <ul className="card entry-list">
          {results.data.rows.map((member) => (
            <li key={member.userId}>
              <p>
                <Link className="entry-title" to={`/admin/members/${member.userId}`}>
                  {member.email ?? t('admin.members.deletedAccount')}
                </Link>
                <br />
                <span className="entry-detail mono">{member.userCode}</span>{' '}
                <span className="entry-detail">{formatTime(member.createdAt)}</span>
                {member.suspendedAt ? (
                  <>
                    {' '}
                    <span className="status status-failed">{t('admin.lifecycle.suspended')}</span>
                  </>
                ) : null}
              </p>
              <span className="entry-amount">
                {t('admin.members.bindingsCount', { count: member.liveBindings })}
              </span>
            </li>
          ))}
        </ul>
      )}
      {results.data && searching ? (
        <Pager
          page={page}
          pageSize={PAGE_SIZE}
          total={results.data.total}
          onPage={setPage}
          label={t('admin.members.results')}
        />
      ) : null}
    </Page>
  );
}
