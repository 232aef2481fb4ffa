import type { PayoutWallet } from '@elex/contract';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatGwei } from '../format';
import { ExplorerLink } from './explorer-link';

/**
 * The payout wallet's health above the withdrawal queue (issue 17): where it is, what it holds, what
 * awaits payment and what is on its way, and a warning when its USDT or its gas falls short of that.
 * Without a payout key, one line says payouts are by hand.
 */
export function PayoutWalletPanel({ wallet }: { wallet: PayoutWallet }) {
  const { t } = useTranslation();
  if (!wallet.enabled) return <p className="muted payout-off">{t('admin.payouts.off')}</p>;
  return (
    <section className="card payout-wallet" aria-labelledby="payout-wallet-title">
      <h2 id="payout-wallet-title">{t('admin.payouts.walletTitle')}</h2>
      <dl className="admin-history-summary payout-wallet-figures">
        <div className="payout-wallet-address">
          <dt>{t('admin.payouts.address')}</dt>
          <dd className="mono admin-break">
            <ExplorerLink url={wallet.explorerUrl} text={wallet.address} />
          </dd>
        </div>
        <div>
          <dt>{t('admin.payouts.usdtBalance')}</dt>
          <dd>{wallet.balances ? formatAmount(wallet.balances.usdt) : '—'}</dd>
        </div>
        <div>
          <dt>{t('admin.payouts.gasBalance')}</dt>
          <dd>{wallet.balances ? formatGas(wallet.balances.gas) : '—'}</dd>
        </div>
        <div>
          <dt>{t('admin.payouts.fees')}</dt>
          <dd>
            {t('admin.payouts.feesFigure', {
              asked: wallet.fees.askedGwei === null ? '—' : formatGwei(wallet.fees.askedGwei),
              ceiling: formatGwei(wallet.fees.ceilingGwei),
            })}
          </dd>
        </div>
        <div>
          <dt>{t('admin.payouts.awaiting')}</dt>
          <dd>
            {t('admin.payouts.countAmount', {
              count: wallet.awaiting.count,
              amount: formatAmount(wallet.awaiting.amount),
            })}
          </dd>
        </div>
        <div>
          <dt>{t('admin.payouts.inFlight')}</dt>
          <dd>
            {t('admin.payouts.countAmount', {
              count: wallet.inFlight.count,
              amount: formatAmount(wallet.inFlight.amount),
            })}
          </dd>
        </div>
      </dl>
      <p className="muted payout-fast-lane">
        {wallet.fastLane
          ? t('admin.payouts.fastLaneOn', {
              max: formatAmount(wallet.fastLane.max),
              memberDaily: formatAmount(wallet.fastLane.memberDaily),
              daily: formatAmount(wallet.fastLane.daily),
              sent: formatAmount(wallet.fastLane.sentLast24h),
              days: wallet.fastLane.minAccountDays,
            })
          : t('admin.payouts.fastLaneOff')}
      </p>
      {wallet.unreachable ? (
        <p className="payout-warning">{t('admin.payouts.unreachable', { error: wallet.unreachable })}</p>
      ) : null}
      {wallet.shortOfUsdt && wallet.balances ? (
        <p className="payout-warning">
          {t('admin.payouts.shortOfUsdt', {
            held: formatAmount(wallet.balances.usdt),
            needed: formatAmount(wallet.needed.usdt),
          })}
        </p>
      ) : null}
      {wallet.shortOfGas && wallet.balances && wallet.needed.gas ? (
        <p className="payout-warning">
          {t('admin.payouts.shortOfGas', {
            held: formatGas(wallet.balances.gas),
            needed: formatGas(wallet.needed.gas, 'needed'),
          })}
        </p>
      ) : null}
    </section>
  );
}

/**
 * Gas (POL, 18 decimals) to four decimals. What the wallet holds is cut, never shown as more than it is
 * (0.023999 held beside 0.024 needed read "holds 0.0240, needs 0.0240"); a non-zero dust below 0.0001
 * reads "< 0.0001 POL", not nothing. What it needs is rounded up, so a small need never reads as zero.
 */
export function formatGas(value: string, rounding: 'held' | 'needed' = 'held'): string {
  const [whole = '0', fraction = ''] = value.split('.');
  const digits = fraction.padEnd(18, '0');
  const hasRest = /[1-9]/.test(digits.slice(4));
  let kept = BigInt(`${whole}${digits.slice(0, 4)}`);
  if (rounding === 'needed' && hasRest) kept += 1n;
  if (kept === 0n && hasRest) return '< 0.0001 POL';
  const text = kept.toString().padStart(5, '0');
  return `${text.slice(0, -4)}.${text.slice(-4)} POL`;
}
