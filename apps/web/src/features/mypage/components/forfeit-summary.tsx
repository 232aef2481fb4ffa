import { DECIMALS, forfeitOnDeletion, toScaled, WITHDRAWAL, type Withdrawable } from '@elex/contract';
import { ArrowRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useExchangeList } from '../../../shared/exchanges/exchange-list-query';
import { formatUsdtExact } from '../../../shared/exchanges/format';
import { withdrawalHref } from '../../../shared/exchanges/paths';
import { formatLocalTime } from '../../../shared/i18n/intl-formats';

const isPositive = (usdt: string) => toScaled(usdt, DECIMALS.usdt) > 0n;

/**
 * What deleting the account forfeits (issue 11): per bound UID its cashback, the event rewards and the
 * total, exact to the last digit; and, when a UID could still be withdrawn (at least the minimum),
 * "Withdraw first", before the delete button.
 */
export function ForfeitSummary({ withdrawable }: { withdrawable: Withdrawable }) {
  const { t } = useTranslation();
  const exchanges = useExchangeList();
  const exchangeName = (platId: number) =>
    exchanges.data?.find((entry) => entry.id === platId)?.name ?? `#${platId}`;
  const total = forfeitOnDeletion(withdrawable);
  const amount = (usdt: string) => `${formatUsdtExact(usdt)} ${t('cashback.usdt')}`;

  if (!isPositive(total)) {
    return <p className="forfeit-nothing">{t('mypage.deleteNothingHeld')}</p>;
  }
  // The withdrawal rule (contract): a UID's cashback plus the rewards, at least the minimum, and not
  // held for the ownership check or frozen by a dispute. The withdrawal page opens on the UID holding
  // the most; the member may choose another there.
  const micro = (usdt: string) => toScaled(usdt, DECIMALS.usdt);
  const first = withdrawable.bindings
    .filter((binding) => !binding.frozen && binding.heldUntil === null)
    .filter((binding) => micro(binding.withdrawable) >= WITHDRAWAL.minimumMicroUsdt)
    .reduce<Withdrawable['bindings'][number] | null>(
      (best, binding) => (best && micro(best.withdrawable) >= micro(binding.withdrawable) ? best : binding),
      null,
    );
  return (
    <>
      <table className="forfeit-table">
        <caption>{t('mypage.deleteForfeitTitle')}</caption>
        <tbody>
          {withdrawable.bindings.map((binding) => (
            <tr key={`${binding.platId}:${binding.uid}`}>
              <th scope="row">
                {t('mypage.deleteForfeitUid', { name: exchangeName(binding.platId), uid: binding.uid })}
              </th>
              <td>{amount(binding.cashback)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">{t('mypage.deleteForfeitRewards')}</th>
            <td>{amount(withdrawable.rewards)}</td>
          </tr>
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('mypage.deleteForfeitTotal')}</th>
            <td>{amount(total)}</td>
          </tr>
        </tfoot>
      </table>
      {first ? (
        <div className="withdraw-first">
          <p>{t('mypage.deleteWithdrawFirstBody', { minimum: WITHDRAWAL.minimumUsdt })}</p>
          {withdrawable.lockedUntil ? (
            <p className="muted">
              {t('mypage.withdrawalLockedUntil', {
                time: formatLocalTime(withdrawable.lockedUntil),
              })}
            </p>
          ) : null}
          <Link to={withdrawalHref(first.platId, first.uid)} className="button button-primary button-block">
            {t('mypage.deleteWithdrawFirst')}
            <ArrowRight size={16} aria-hidden="true" />
          </Link>
        </div>
      ) : (
        <p className="muted">{t('mypage.deleteBelowMinimum', { minimum: WITHDRAWAL.minimumUsdt })}</p>
      )}
    </>
  );
}
