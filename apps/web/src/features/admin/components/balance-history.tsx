import type { BalanceHistoryEntry } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsWide } from '../../../shared/hooks/use-is-wide';
import { formatAmount, formatShortTime } from '../format';
import { ScrollRegion } from './scroll-region';

const FIRST_ROWS = 6;

/** Movements have no id; within one history the balance after each is what tells two apart. */
const movementKey = (movement: BalanceHistoryEntry) =>
  `${movement.at}|${movement.account}|${movement.kind}|${movement.amount}|${movement.balanceAfter}`;

/**
 * A withdrawal's balance history beside it: the latest movements of the UID's cashback and the
 * member's rewards, a few at first (all on request); a table on desktop, a list on a phone.
 */
export function BalanceHistory({ id, movements }: { id: string; movements: BalanceHistoryEntry[] }) {
  const { t } = useTranslation();
  const isWide = useIsWide();
  const [showAll, setShowAll] = useState(false);
  if (movements.length === 0) return <p className="muted">{t('admin.withdrawals.noHistory')}</p>;
  const shown = showAll ? movements : movements.slice(0, FIRST_ROWS);
  const label = t('admin.withdrawals.historyOf', { id });
  const sign = (amount: string) => (amount.startsWith('-') ? '' : ' positive');
  return (
    <>
      {isWide ? (
        <ScrollRegion label={label}>
          <table className="data-table admin-compact">
            <thead>
              <tr>
                <th scope="col">{t('admin.ledger.atUtc')}</th>
                <th scope="col">{t('admin.ledger.kind')}</th>
                <th scope="col" className="numeric">
                  {t('admin.ledger.amount')}
                </th>
                <th scope="col" className="numeric">
                  {t('admin.ledger.balanceAfter')}
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((movement) => (
                <tr key={movementKey(movement)}>
                  <td>{formatShortTime(movement.at)}</td>
                  <td>
                    {t(`admin.ledger.kinds.${movement.kind}`, { defaultValue: movement.kind })}
                    <span className="status-reason">{t(`admin.ledger.accounts.${movement.account}`)}</span>
                  </td>
                  <td className={`numeric${sign(movement.amount)}`}>{formatAmount(movement.amount)}</td>
                  <td className="numeric">{formatAmount(movement.balanceAfter)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <ul className="entry-list admin-history-list" aria-label={label}>
          {shown.map((movement) => (
            <li key={movementKey(movement)}>
              <p>
                <span className="entry-title">
                  {t(`admin.ledger.kinds.${movement.kind}`, { defaultValue: movement.kind })}
                </span>
                <br />
                <span className="entry-detail">
                  {t(`admin.ledger.accounts.${movement.account}`)} · {formatShortTime(movement.at)}
                </span>
              </p>
              <p className="entry-amount">
                <span className={sign(movement.amount).trim()}>{formatAmount(movement.amount)}</span>
                <br />
                <span className="entry-detail">{formatAmount(movement.balanceAfter)}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
      {movements.length > FIRST_ROWS ? (
        <button
          type="button"
          className="link-button admin-show-all"
          aria-expanded={showAll}
          onClick={() => setShowAll((value) => !value)}
        >
          {showAll
            ? t('admin.withdrawals.showFewer')
            : t('admin.withdrawals.showAll', { count: movements.length })}
        </button>
      ) : null}
    </>
  );
}
