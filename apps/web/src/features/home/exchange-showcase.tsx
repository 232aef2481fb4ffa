import type { ExchangeIndexResponse } from '@elex/contract';
import { useMemo } from 'react';
import { useTranslation } from '../../shared/i18n/use-translation';
import { ActivitySlider } from './components/activity-slider';
import { HallOfFame } from './components/hall-of-fame';
import { PartnerLogos } from './components/partner-logos';
import { RankingTable } from './components/ranking-table';

/**
 * The home's sections made of the exchange list (spec section 2): activity sliders, the ranking,
 * the hall of fame and the partner logos. Its own chunk with Embla and Radix Tabs (issue 14): none of
 * it can paint before the list arrives, so its code loads beside that request (visitor-home.tsx).
 */
export default function ExchangeShowcase({ index }: { index: ExchangeIndexResponse }) {
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
