import { Hourglass } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Page } from './page';

/** A page whose content arrives in a later release: its real title and purpose, never filler text. */
export function PendingPage({ pageKey }: { pageKey: string }) {
  const { t } = useTranslation();
  return (
    <Page title={t(`pages.${pageKey}.title`)} intro={t(`pages.${pageKey}.intro`)}>
      <div className="card pending-card">
        <Hourglass size={22} aria-hidden="true" />
        <p>{t('later.note')}</p>
      </div>
    </Page>
  );
}
