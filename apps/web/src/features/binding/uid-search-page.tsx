import { CASHBACK, EXCHANGE_UID_PATTERN, PATHS } from '@elex/contract';
import { useQuery } from '@tanstack/react-query';
import { CircleCheck, CircleX, Clock, ExternalLink, Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useOpenExchangeList } from '../../shared/exchanges/exchange-list-query';
import { ExchangeLogo } from '../../shared/exchanges/exchange-logo';
import { exchangeDetailHref, exchangeLinkDetailHref, uidLinkingHref } from '../../shared/exchanges/paths';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { verifyExchangeUid } from './api/verify-exchange-uid';
import './binding.css';

/**
 * /exchangeNo?uid=&platId=: the answer to the home page's UID search. It echoes the search, asks the
 * server whether the UID is one of our referrals (verifyExchangeUid) and always explains the rule and
 * the two ways to fix a UID that was not registered with our code.
 */
export default function UidSearchPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const uid = params.get('uid')?.trim() ?? '';
  const platId = Number(params.get('platId'));
  const list = useOpenExchangeList();
  const exchange = list.data?.find((entry) => entry.id === platId);
  const isValid = EXCHANGE_UID_PATTERN.test(uid) && Number.isInteger(platId) && platId > 0;
  const eligibility = useQuery({
    queryKey: ['uid-eligibility', platId, uid],
    queryFn: () => verifyExchangeUid(uid, platId),
    enabled: isValid,
    staleTime: 60_000,
  });

  // A search the server cannot answer at all: no valid UID or exchange, or an exchange it does not
  // know (1004). Nothing to bind there, only a new search.
  if (!isValid || eligibility.data === 'unknownExchange') {
    return (
      <Page title={t('pages.exchangeNo.title')} intro={t('pages.exchangeNo.intro')}>
        <div className="card load-error" role="alert">
          <p>{isValid ? t('uidSearch.notPartner') : t('uidSearch.invalid')}</p>
          <Link to={PATHS.home} className="button button-ghost">
            {t('uidSearch.searchAgain')}
          </Link>
        </div>
      </Page>
    );
  }

  return (
    <Page title={t('pages.exchangeNo.title')} intro={t('pages.exchangeNo.intro')}>
      <section className="card uid-echo" aria-labelledby="uid-echo-title">
        <h2 id="uid-echo-title">{t('uidSearch.echoTitle')}</h2>
        <div className="uid-echo-row">
          {exchange ? <ExchangeLogo logo={exchange.logo} name={exchange.name} size={40} decorative /> : null}
          <dl className="figure-grid">
            <div>
              <dt>{t('uidSearch.exchange')}</dt>
              <dd>{exchange?.name ?? t('uidSearch.unknownExchange')}</dd>
            </div>
            <div>
              <dt>{t('uidSearch.uid')}</dt>
              <dd className="mono">{uid}</dd>
            </div>
          </dl>
        </div>
        <div aria-live="polite">
          {eligibility.isPending ? (
            <Skeleton lines={1} />
          ) : eligibility.data === 'eligible' || eligibility.data === 'boundToYou' ? (
            <p className="result-line result-good">
              <CircleCheck size={18} aria-hidden="true" />
              {eligibility.data === 'eligible' ? t('uidSearch.eligible') : t('uidSearch.boundToYou')}
            </p>
          ) : eligibility.data === 'boundToOther' ? (
            <p className="result-line result-bad">
              <CircleX size={18} aria-hidden="true" />
              {t('msg:uidAlreadyBound')}
            </p>
          ) : eligibility.data === 'notReferred' ? (
            <p className="result-line result-bad">
              <CircleX size={18} aria-hidden="true" />
              {t('msg:uidNotReferred')}
            </p>
          ) : eligibility.data === 'notYetListed' ? (
            <p className="result-line">
              <Clock size={18} aria-hidden="true" />
              {t('uidSearch.notYetListed', {
                exchange: exchange?.name ?? t('uidSearch.unknownExchange'),
                hours: CASHBACK.rosterDelayHours,
              })}
            </p>
          ) : (
            <p className="result-line">
              <Info size={18} aria-hidden="true" />
              {t('uidSearch.unanswered')}
            </p>
          )}
        </div>
        {/* Binding is offered only where it can succeed: not for a UID that was not referred or that
            someone else holds; a UID the member holds already leads to its page instead. */}
        {eligibility.data === 'eligible' ||
        eligibility.data === 'unanswered' ||
        eligibility.data === 'notYetListed' ? (
          <Link to={uidLinkingHref(platId, uid)} className="button button-primary">
            {t('uidSearch.bind')}
          </Link>
        ) : eligibility.data === 'boundToYou' ? (
          <Link to={exchangeLinkDetailHref(platId, uid)} className="button button-primary">
            {t('uidSearch.seeBound')}
          </Link>
        ) : null}
      </section>

      <section className="card detail-section" aria-labelledby="uid-rule-title">
        <h2 id="uid-rule-title" className="card-title">
          {t('uidSearch.ruleTitle')}
        </h2>
        <p>{t('uidSearch.ruleBody')}</p>
        <h3>{t('uidSearch.fixTitle')}</h3>
        <ol className="uid-fix-list">
          <li>
            <strong>{t('uidSearch.fixNewTitle')}</strong> {t('uidSearch.fixNewBody')}{' '}
            {exchange?.signupUrl ? (
              <a href={exchange.signupUrl} target="_blank" rel="noopener noreferrer">
                {t('uidSearch.fixNewLink', { name: exchange.name })}
                <ExternalLink size={14} aria-hidden="true" />
                <span className="visually-hidden"> {t('common.opensInNewWindow')}</span>
              </a>
            ) : exchange ? (
              t('exchanges.signup.unavailable', { name: exchange.name })
            ) : null}
          </li>
          <li>
            <strong>{t('uidSearch.fixTransferTitle')}</strong> {t('uidSearch.fixTransferBody')}
          </li>
        </ol>
        {exchange ? (
          <Link to={exchangeDetailHref(exchange.id)}>
            {t('uidSearch.seeExchange', { name: exchange.name })}
          </Link>
        ) : null}
      </section>
    </Page>
  );
}
