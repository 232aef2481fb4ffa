import { type ExchangeIndexRow, type Fame, HOME } from '@elex/contract';
import { Trophy } from 'lucide-react';
import { ExchangeLogo } from '../../../shared/exchanges/exchange-logo';
import { formatUsdt } from '../../../shared/exchanges/format';
import { useIsWide } from '../../../shared/hooks/use-is-wide';
import { useTranslation } from '../../../shared/i18n/use-translation';
import { Carousel } from './carousel';

/** spec section 9: fames grouped 3 per slide; mobile keeps the first 3 (no slider). */
export function groupFames<T>(fames: readonly T[], isWide: boolean): T[][] {
  if (!isWide) return [fames.slice(0, HOME.mobileFames)];
  const slides: T[][] = [];
  for (let start = 0; start < fames.length; start += HOME.famesPerSlide) {
    slides.push(fames.slice(start, start + HOME.famesPerSlide));
  }
  return slides;
}

export function HallOfFame({
  fames,
  exchanges,
}: {
  fames: readonly Fame[];
  exchanges: ReadonlyMap<number, ExchangeIndexRow>;
}) {
  const { t } = useTranslation();
  const isWide = useIsWide();
  if (fames.length === 0) return null;
  const slides = groupFames(fames, isWide).map((group) => (
    <ol key={group.map((fame) => `${fame.platId}:${fame.amount}`).join()} className="fame-list">
      {group.map((fame) => {
        const exchange = exchanges.get(fame.platId);
        return (
          <li key={`${fame.platId}:${fame.amount}`} className="card fame-card">
            <span className="fame-exchange">
              <Trophy size={18} aria-hidden="true" className="accent" />
              {exchange ? (
                <ExchangeLogo logo={exchange.logo} name={exchange.platname} size={24} decorative />
              ) : null}
              {exchange?.platname}
            </span>
            <span className="fame-amount">
              {t('exchanges.usdtAmount', { amount: formatUsdt(fame.amount) })}
            </span>
            <span className="fame-caption muted">{t('homePublic.fameCaption')}</span>
          </li>
        );
      })}
    </ol>
  ));
  if (!isWide) {
    return (
      <section className="hall-of-fame" aria-labelledby="fame-title">
        <h2 id="fame-title">{t('homePublic.fameTitle')}</h2>
        {slides[0]}
      </section>
    );
  }
  return <Carousel title={t('homePublic.fameTitle')} className="hall-of-fame" slides={slides} />;
}
