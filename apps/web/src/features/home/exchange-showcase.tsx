import type { ExchangeIndexResponse } from '@elex/contract';
import { type ReactNode, useDeferredValue, useMemo } from 'react';
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
 * which the home starts once its first render has painted (visitor-home.tsx).
 */
/** `pending` shows until the list is in: the home's skeleton, the one it shows until this chunk is in. */
function ExchangeShowcase({ pending }: { pending: ReactNode }) {
  const { t } = useTranslation();
  const index = useExchangeIndex();
  // The list arrives through TanStack Query's external store, whose updates React renders at once, in
  // one task with the commit and every effect (300 ms on a slow phone). Deferred, the sections render
  // as a transition in slices, and their effects (the carousels' measuring) run after the paint.
  const data = useDeferredValue(index.data);
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
  return data ? <ExchangeSections index={data} /> : pending;
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
