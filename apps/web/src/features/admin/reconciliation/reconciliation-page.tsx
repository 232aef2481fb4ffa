import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../shared/ui/page';
import { RebatesSection } from './rebates-section';
import { RosterSection } from './roster-section';
import { SummarySection } from './summary-section';

const TABS = ['summary', 'roster', 'rebates'] as const;
type Tab = (typeof TABS)[number];

/**
 * /admin/reconciliation?tab=&… (issue 12): per exchange and period, the commission received and what
 * became of it; the roster; the records not paid with why, and re-settling. Every filter lives in the
 * address, so a view can be shared with another operator or reloaded.
 */
export default function ReconciliationPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const asked = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(asked ?? '') ? (asked as Tab) : 'summary';
  return (
    <Page title={t('admin.reconciliation.title')} intro={t('admin.reconciliation.intro')} wide>
      <nav aria-label={t('admin.reconciliation.sections')} className="section-nav reconciliation-tabs">
        <ul>
          {TABS.map((key) => (
            <li key={key}>
              <Link
                to={
                  key === 'summary'
                    ? '?'
                    : `?tab=${key}${params.get('platId') ? `&platId=${params.get('platId')}` : ''}`
                }
                className={key === tab ? 'section-link active' : 'section-link'}
                aria-current={key === tab ? 'page' : undefined}
              >
                {t(`admin.reconciliation.tabs.${key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tab === 'summary' ? <SummarySection /> : tab === 'roster' ? <RosterSection /> : <RebatesSection />}
    </Page>
  );
}
