import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { useCatalog } from './api/get-catalog';
import { ActivitiesEditor } from './components/activities-editor';
import { ExchangeStatusSection } from './components/exchange-lifecycle';
import { LoadError } from './components/load-error';
import { FieldsForm } from './exchange-editor/fields-form';
import { LogoSection } from './exchange-editor/logo-section';
import { useRefreshAfterEdit } from './exchange-editor/use-refresh-after-edit';
import { VipTiersForm } from './exchange-editor/vip-tiers-form';
import { formatTime } from './format';

/** /admin/catalog/:platId: every field of one partner, its logo, VIP table and activities. */
export default function ExchangeEditorPage() {
  const { t } = useTranslation();
  const refresh = useRefreshAfterEdit();
  const platId = Number(useParams().platId);
  const catalog = useCatalog();
  const exchange = catalog.data?.exchanges.find((entry) => entry.platId === platId);

  return (
    <Page title={exchange ? exchange.name : t('admin.catalog.exchange')} wide>
      <p>
        <Link to="/admin/catalog" className="admin-back">
          <ArrowLeft size={16} aria-hidden="true" />
          {t('admin.catalog.back')}
        </Link>
      </p>
      {catalog.isError && !catalog.data ? <LoadError onRetry={() => void catalog.refetch()} /> : null}
      {!catalog.data ? (
        catalog.isError ? null : (
          <Skeleton lines={8} />
        )
      ) : !exchange ? (
        <p className="card muted">{t('msg:exchangeNotFound')}</p>
      ) : (
        <>
          <p className="muted">
            {t('admin.catalog.platIdLine', { platId: exchange.platId, time: formatTime(exchange.updatedAt) })}
          </p>
          <ExchangeStatusSection exchange={exchange} onSaved={refresh} />
          <LogoSection exchange={exchange} onSaved={refresh} />
          <FieldsForm exchange={exchange} onSaved={refresh} />
          <VipTiersForm exchange={exchange} onSaved={refresh} />
          <ActivitiesEditor exchange={exchange} onSaved={refresh} />
        </>
      )}
    </Page>
  );
}
