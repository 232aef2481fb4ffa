import { type ExchangeIndexRow, HOME } from '@elex/contract';
import { Link } from 'react-router';
import { ExchangeLogo } from '../../../shared/exchanges/exchange-logo';
import { exchangeDetailHref } from '../../../shared/exchanges/paths';
import { useTranslation } from '../../../shared/i18n/use-translation';

/** spec section 2: 10 partner logos, each leading to its exchange. */
export function PartnerLogos({ exchanges }: { exchanges: readonly ExchangeIndexRow[] }) {
  const { t } = useTranslation();
  return (
    <section className="partner-logos" aria-labelledby="partners-title">
      <h2 id="partners-title">{t('homePublic.partnersTitle')}</h2>
      <ul>
        {exchanges.slice(0, HOME.partnerLogos).map((exchange) => (
          <li key={exchange.platId}>
            <Link to={exchangeDetailHref(exchange.platId)} className="card partner-logo">
              <ExchangeLogo logo={exchange.logo} name={exchange.platname} size={44} decorative />
              <span>{exchange.platname}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
