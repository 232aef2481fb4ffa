import type { Activity, ExchangeIndexRow } from '@elex/contract';
import { ExternalLink } from 'lucide-react';
import { ExchangeLogo } from '../../../shared/exchanges/exchange-logo';
import { useTranslation } from '../../../shared/i18n/use-translation';
import { Carousel } from './carousel';

/** An activity slider: each slide opens the exchange's activity page in a new window (spec section 2). */
export function ActivitySlider({
  title,
  activities,
  exchanges,
  tone,
}: {
  title: string;
  activities: readonly Activity[];
  exchanges: ReadonlyMap<number, ExchangeIndexRow>;
  tone: 'hot' | 'general';
}) {
  const { t } = useTranslation();
  if (activities.length === 0) return null;
  return (
    <Carousel
      title={title}
      className={`activity-carousel activity-${tone}`}
      slides={activities.map((activity) => {
        const exchange = exchanges.get(activity.platId);
        return (
          <a
            key={`${activity.platId}-${activity.activityUrl}`}
            className="card activity-card"
            href={activity.activityUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            <span className="activity-exchange">
              {exchange ? (
                <ExchangeLogo logo={exchange.logo} name={exchange.platname} size={28} decorative />
              ) : null}
              <span>{exchange?.platname}</span>
              {tone === 'hot' ? <span className="badge badge-hot">{t('homePublic.hot')}</span> : null}
            </span>
            <span className="activity-title">{activity.title}</span>
            <span className="activity-more">
              {t('homePublic.openActivity')}
              <ExternalLink size={14} aria-hidden="true" />
              <span className="visually-hidden"> {t('common.opensInNewWindow')}</span>
            </span>
          </a>
        );
      })}
    />
  );
}
