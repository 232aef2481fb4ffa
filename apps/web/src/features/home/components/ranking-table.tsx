import { type ExchangeIndexRow, HOME_TABS, type HomeTab, rankExchanges } from '@elex/contract';
import * as Tabs from '@radix-ui/react-tabs';
import { ChevronRight } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ExchangeLogo } from '../../../shared/exchanges/exchange-logo';
import { ExchangeTags } from '../../../shared/exchanges/exchange-tags';
import { formatPercent, formatScore, formatUsdt, isZeroAmount } from '../../../shared/exchanges/format';
import { exchangeDetailHref } from '../../../shared/exchanges/paths';
import { useIsWide } from '../../../shared/hooks/use-is-wide';
import { useTranslation } from '../../../shared/i18n/use-translation';

/**
 * The exchange ranking with the six tabs of spec section 4, in order; each tab sorts and filters with
 * the contract's rankExchanges. A row leads to /exchangeDetail?id= (the name is the link; on desktop
 * the whole row is clickable too).
 */
export function RankingTable({ exchanges }: { exchanges: readonly ExchangeIndexRow[] }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<HomeTab>('overall');
  const isWide = useIsWide();
  return (
    <section className="ranking" aria-labelledby="ranking-title">
      <h2 id="ranking-title">{t('homePublic.rankingTitle')}</h2>
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as HomeTab)} activationMode="automatic">
        <Tabs.List className="tab-list" aria-label={t('homePublic.rankingTabs')}>
          {HOME_TABS.map((key) => (
            <Tabs.Trigger key={key} value={key} className="tab-trigger">
              {t(`homePublic.tabs.${key}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {HOME_TABS.map((key) => (
          <Tabs.Content key={key} value={key} className="tab-panel">
            {key === tab ? (
              isWide ? (
                <RankingRows rows={rankExchanges(exchanges, key)} tab={key} />
              ) : (
                <RankingCards rows={rankExchanges(exchanges, key)} tab={key} />
              )
            ) : null}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}

function EmptyTab() {
  const { t } = useTranslation();
  return <p className="muted empty-note">{t('homePublic.emptyTab')}</p>;
}

function RankingRows({ rows, tab }: { rows: ExchangeIndexRow[]; tab: HomeTab }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (rows.length === 0) return <EmptyTab />;
  return (
    <table className="catalog-table ranking-table">
      <caption className="visually-hidden">{t(`homePublic.tabCaptions.${tab}`)}</caption>
      <thead>
        <tr>
          <th scope="col">{t('exchanges.columns.rank')}</th>
          <th scope="col">{t('exchanges.columns.exchange')}</th>
          <th scope="col">{t('exchanges.columns.score')}</th>
          <th scope="col">{t('exchanges.columns.cashRate')}</th>
          <th scope="col">{t('exchanges.columns.limitPrice')}</th>
          <th scope="col">{t('exchanges.columns.marketPrice')}</th>
          <th scope="col">{t('exchanges.columns.personAvg')}</th>
          <th scope="col">
            <span className="visually-hidden">{t('exchanges.columns.details')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr
            key={row.platId}
            className="clickable-row"
            onClick={() => navigate(exchangeDetailHref(row.platId))}
          >
            <td className="rank-cell">{index + 1}</td>
            <th scope="row">
              <div className="exchange-cell">
                <ExchangeLogo logo={row.logo} name={row.platname} size={32} decorative />
                <div>
                  <Link to={exchangeDetailHref(row.platId)} className="exchange-name">
                    {row.platname}
                  </Link>
                  <ExchangeTags marks={row.mark} />
                </div>
              </div>
            </th>
            <td>{formatScore(row.score)}</td>
            <td className="figure-strong">{formatPercent(row.cashRate)}</td>
            <td>{formatPercent(row.limitPrice)}</td>
            <td>{formatPercent(row.marketPrice)}</td>
            <td>
              {isZeroAmount(row.personAvg)
                ? t('exchanges.noCashbackYet')
                : t('exchanges.usdtAmount', { amount: formatUsdt(row.personAvg) })}
            </td>
            <td className="chevron-cell">
              <ChevronRight size={18} aria-hidden="true" />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RankingCards({ rows, tab }: { rows: ExchangeIndexRow[]; tab: HomeTab }) {
  const { t } = useTranslation();
  const idPrefix = useId();
  if (rows.length === 0) return <EmptyTab />;
  return (
    <ol className="ranking-cards" aria-label={t(`homePublic.tabCaptions.${tab}`)}>
      {rows.map((row, index) => (
        <li key={row.platId}>
          {/* Named by the exchange alone, as the desktop row's link is; the figures are its description. */}
          <Link
            to={exchangeDetailHref(row.platId)}
            className="card ranking-card"
            aria-labelledby={`${idPrefix}-${row.platId}-name`}
            aria-describedby={`${idPrefix}-${row.platId}-figures ${idPrefix}-${row.platId}-average ${idPrefix}-${row.platId}-cash`}
          >
            <span className="rank-cell" aria-hidden="true">
              {index + 1}
            </span>
            <ExchangeLogo logo={row.logo} name={row.platname} size={36} decorative />
            <span className="ranking-card-main">
              <span className="exchange-name" id={`${idPrefix}-${row.platId}-name`}>
                {row.platname}
              </span>
              <span className="ranking-card-figures muted" id={`${idPrefix}-${row.platId}-figures`}>
                {t('exchanges.cardFigures', {
                  score: formatScore(row.score),
                  limitPrice: formatPercent(row.limitPrice),
                  marketPrice: formatPercent(row.marketPrice),
                })}
              </span>
              {/* The desktop table's 30-day average, which the cards left out (issue 15). */}
              <span className="ranking-card-figures muted" id={`${idPrefix}-${row.platId}-average`}>
                {t('exchanges.cardAverage', {
                  amount: isZeroAmount(row.personAvg)
                    ? t('exchanges.noCashbackYet')
                    : t('exchanges.usdtAmount', { amount: formatUsdt(row.personAvg) }),
                })}
              </span>
            </span>
            <span className="ranking-card-score" id={`${idPrefix}-${row.platId}-cash`}>
              <span className="muted">{t('exchanges.columns.cashRate')}</span>
              <span className="figure-strong">{formatPercent(row.cashRate)}</span>
            </span>
          </Link>
        </li>
      ))}
    </ol>
  );
}
