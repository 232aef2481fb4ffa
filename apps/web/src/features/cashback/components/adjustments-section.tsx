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
 * the operator's reason as written. Absent until there is one: most members never see it.
 */
export function AdjustmentsSection({ account }: { account: CorrectionAccount }) {
  const { t } = useTranslation();
  const exchangeName = useExchangeName();
  const [page, setPage] = useState(1);
  const adjustments = useAdjustments(account, page, ADJUSTMENTS_PAGE_SIZE);
  const data = adjustments.data;
  if (!data || data.total === 0) return null;
  return (
    <section className="adjustments" aria-labelledby={`adjustments-${account}`}>
      <h2 id={`adjustments-${account}`}>{t('cashback.adjustments.title')}</h2>
      <p className="muted">{t('cashback.adjustments.intro')}</p>
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
              {record.account === 'rewards'
                ? t('cashback.adjustments.rewards')
                : `${exchangeName(record.platId ?? 0)} · ${record.uid}`}
              {' · '}
              {formatLocalTime(record.postedAt)}
            </p>
          </li>
        ))}
      </ul>
      <Pager page={page} pageSize={ADJUSTMENTS_PAGE_SIZE} total={data.total} onPage={setPage} />
    </section>
  );
}
