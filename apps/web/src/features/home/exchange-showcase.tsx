import type { ExchangeIndexResponse } from '@elex/contract';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from '../../shared/i18n/use-translation';
import { useExchangeIndex } from '../../shared/queries/get-exchange-index';
import { withQueryScope } from '../../shared/queries/query-scope';
import { ActivitySlider } from './components/activity-slider';
import { HallOfFame } from './components/hall-of-fame';
import { PartnerLogos } from './components/partner-logos';
import { RankingTable } from './components/ranking-table';

/**
 * The home's sections made of the exchange list (spec section 2): activity sliders, the ranking,
 * the hall of fame and the partner logos. Its own chunk with Embla, Radix Tabs and TanStack Query
 * (issue 14): none of it can paint before the list arrives, so its code loads beside that request,
 * which the home starts at its first render (visitor-home.tsx).
 */
/** `pending` shows until the list is in: the home's skeleton, the one it shows until this chunk is in. */
function ExchangeShowcase({ pending }: { pending: ReactNode }) {
  const { t } = useTranslation();
  const index = useExchangeIndex();
  if (index.isError) {
    return (
      <div className="card load-error" role="alert">
        <p>{t('homePublic.loadFailed')}</p>
        <button type="button" className="button button-ghost" onClick={() => void index.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  return index.isPending ? pending : <ExchangeSections index={index.data} />;
}

function ExchangeSections({ index }: { index: ExchangeIndexResponse }) {
  const { t } = useTranslation();
  const byId = useMemo(() => new Map(index.allExchange.map((row) => [row.platId, row])), [index]);
  return (
    <>
      <div className="activity-sliders">
        <ActivitySlider
          title={t('homePublic.hotActivities')}
          activities={index.hotActivity}
          exchanges={byId}
          tone="hot"
        />
        <ActivitySlider
          title={t('homePublic.generalActivities')}
          activities={index.generalActivity}
          exchanges={byId}
          tone="general"
        />
      </div>
      <RankingTable exchanges={index.allExchange} />
      <HallOfFame fames={index.fames} exchanges={byId} />
      <PartnerLogos exchanges={index.allExchange} />
    </>
  );
}

export default withQueryScope(ExchangeShowcase);
