import type { CorrectionAccount } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatUsdtExact } from '../../../shared/exchanges/format';
import { formatLocalTime } from '../../../shared/i18n/intl-formats';
import { Pager } from '../../../shared/ui/pager';
import { ADJUSTMENTS_PAGE_SIZE, useAdjustments } from '../api/get-adjustments';
import { useExchangeName } from '../hooks';

/** "+12.50" / "-3.123456": an adjustment says which way it went. */
const signed = (amount: string) =>
  amount.startsWith('-') ? formatUsdtExact(amount) : `+${formatUsdtExact(amount)}`;

/**
 * Our team's corrections of the member's cashback (per UID) or rewards, each as an "Adjustment" with
 * the operator's reason as written. Absent until there is one: most members never see it. With
 * `platId` only that exchange's UIDs' corrections (the records page's exchange filter), with `uid` too
 * only that UID's (its detail page, which then says they are not in its records or chart). Give it a
 * `key` of the filter so a new filter starts at page 1.
 */
export function AdjustmentsSection({
  account,
  platId,
  uid,
}: {
  account: CorrectionAccount;
  platId?: number | undefined;
  uid?: string | undefined;
}) {
  const { t } = useTranslation();
  const exchangeName = useExchangeName();
  const [page, setPage] = useState(1);
  const adjustments = useAdjustments({ account, platId, uid }, page, ADJUSTMENTS_PAGE_SIZE);
  const data = adjustments.data;
  if (!data || data.total === 0) return null;
  const oneUid = uid !== undefined;
  return (
    <section className="adjustments" aria-labelledby={`adjustments-${account}`}>
      <h2 id={`adjustments-${account}`}>{t('cashback.adjustments.title')}</h2>
      <p className="muted">{t(oneUid ? 'cashback.adjustments.uidIntro' : 'cashback.adjustments.intro')}</p>
      {/* A list, not a table: on a phone the reason and the amount must show without scrolling sideways. */}
      <ul className="adjustment-list">
        {data.records.map((record) => (
          <li key={record.id} className="card adjustment">
            <p className="adjustment-head">
              <span className="status status-completed">{t('cashback.adjustments.label')}</span>
              <strong className="numeric">
                {signed(record.amount)} <span className="unit">{t('cashback.usdt')}</span>
              </strong>
            </p>
            <p className="adjustment-reason">{record.reason}</p>
            <p className="muted">
              {/* On one UID's page the exchange and UID are the page's own: the time alone. */}
              {oneUid
                ? null
                : `${
                    record.account === 'rewards'
                      ? t('cashback.adjustments.rewards')
                      : `${exchangeName(record.platId ?? 0)} · ${record.uid}`
                  } · `}
              {formatLocalTime(record.postedAt)}
            </p>
          </li>
        ))}
      </ul>
      <Pager page={page} pageSize={ADJUSTMENTS_PAGE_SIZE} total={data.total} onPage={setPage} />
    </section>
  );
}
