import type { PayoutReconciliation } from '@elex/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../shared/ui/toast';
import { explainTransfer, usePayoutReconciliation } from '../api/payouts';
import { formatAmount, formatTime } from '../format';
import { ExplorerLink } from './explorer-link';
import { ReasonDialog } from './reason-dialog';

type Mismatch = Extract<PayoutReconciliation, { enabled: true }>['mismatches'][number];

/**
 * The payout wallet against the chain (issue 17): which blocks were read, the transfers out, and each
 * one that is not exactly one payout (or a confirmed payout not on chain), with Polygonscan; a transfer
 * that is no payout can be explained (audited), after which it moves to the explained transfers below,
 * with the reason, who gave it and when.
 */
export function PayoutReconciliationPanel() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const report = usePayoutReconciliation(true);
  const [explaining, setExplaining] = useState<Mismatch | null>(null);
  const data = report.data;
  if (!data?.enabled) return null;

  return (
    <section className="card payout-wallet" aria-labelledby="payout-reconciliation-title">
      <div className="payout-reconciliation-head">
        <h2 id="payout-reconciliation-title">{t('admin.payouts.reconciliationTitle')}</h2>
        <button
          type="button"
          className="button button-ghost admin-small-button"
          disabled={report.isFetching}
          onClick={() => void report.refetch()}
        >
          {t('admin.payouts.checkAgain')}
        </button>
      </div>
      <p className="muted" aria-live="polite">
        {data.scannedTo === null
          ? t('admin.payouts.nothingRead')
          : t('admin.payouts.blocksRead', {
              from: data.fromBlock ?? 0,
              to: data.scannedTo,
              count: data.transfers.count,
              amount: formatAmount(data.transfers.amount),
            })}{' '}
        {data.explained.count > 0
          ? t('admin.payouts.explainedCount', {
              count: data.explained.count,
              amount: formatAmount(data.explained.amount),
            })
          : null}
      </p>
      {data.behind ? <p className="muted">{t('admin.payouts.behind', { count: data.behind })}</p> : null}
      {data.unreachable ? (
        <p className="payout-warning">{t('admin.payouts.unreachable', { error: data.unreachable })}</p>
      ) : null}
      {data.mismatches.length === 0 ? (
        data.scannedTo === null ? null : (
          <p>{t('admin.payouts.allMatched')}</p>
        )
      ) : (
        <ul className="payout-mismatches" aria-label={t('admin.payouts.mismatchesLabel')}>
          {data.mismatches.map((mismatch) => (
            <li
              key={`${mismatch.kind}-${mismatch.txHash ?? mismatch.withdrawalId}`}
              className="payout-warning"
            >
              <strong>{t(`admin.payouts.mismatch.${mismatch.kind}`)}</strong>
              <span className="status-reason">
                {t('admin.payouts.mismatchLine', {
                  amount: mismatch.amount ? formatAmount(mismatch.amount) : '—',
                  to: mismatch.to ?? '—',
                  withdrawal: mismatch.withdrawalId ?? '—',
                  block: mismatch.block ?? '—',
                })}
              </span>
              {mismatch.txHash ? (
                <span className="mono admin-break status-reason">
                  <ExplorerLink url={mismatch.explorerUrl} text={mismatch.txHash} />
                </span>
              ) : null}
              {mismatch.kind === 'unknownTransfer' ? (
                <button
                  type="button"
                  className="button button-ghost admin-small-button"
                  onClick={() => setExplaining(mismatch)}
                >
                  {t('admin.payouts.explain')}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {data.explainedTransfers.length > 0 ? (
        <details className="payout-explained">
          <summary>{t('admin.payouts.explainedTitle', { count: data.explained.count })}</summary>
          <ul>
            {data.explainedTransfers.map((transfer) => (
              <li key={`${transfer.txHash}-${transfer.to}`}>
                <span>
                  {t('admin.payouts.explainedLine', {
                    amount: formatAmount(transfer.amount),
                    to: transfer.to,
                    block: transfer.block,
                  })}
                </span>
                <span className="status-reason">
                  {t('admin.payouts.explainedWhy', {
                    reason: transfer.reason,
                    by: transfer.by ?? '—',
                    at: transfer.at ? formatTime(transfer.at) : '—',
                  })}
                </span>
                <span className="mono admin-break status-reason">
                  <ExplorerLink url={transfer.explorerUrl} text={transfer.txHash} />
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <ReasonDialog
        open={explaining !== null}
        id="explain-transfer"
        title={t('admin.payouts.explainTitle')}
        description={t('admin.payouts.explainDescription', {
          amount: explaining?.amount ? formatAmount(explaining.amount) : '—',
          to: explaining?.to ?? '—',
        })}
        label={t('admin.payouts.explainLabel')}
        submitLabel={t('admin.payouts.explainSubmit')}
        onClose={() => setExplaining(null)}
        onSubmit={async (reason) => {
          await explainTransfer({ txHash: explaining?.txHash ?? '', reason });
          toast.success(t('msg:transferExplained'));
          setExplaining(null);
          await client.invalidateQueries({ queryKey: ['admin', 'payoutReconciliation'] });
        }}
      />
    </section>
  );
}
