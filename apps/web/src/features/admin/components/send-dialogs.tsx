import { DECIMALS, fromScaled, type SendResult, toScaled } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';
import { toast } from '../../../shared/ui/toast';
import { sendWithdrawal, sendWithdrawals } from '../api/payouts';
import { formatAmount } from '../format';

export interface SendTarget {
  id: string;
  /** USDT, 6 decimals. */
  amount: string;
  /** "60.00 USDT to 0x… (Bitget UID …)": what leaves the wallet, in the dialog's words. */
  summary: string;
}

/**
 * Send on chain: one withdrawal, or several one after the other. The dialog says what leaves the wallet
 * and that a transfer cannot be called back; after a batch it lists each withdrawal's outcome, with the
 * reason of those not sent, until the operator closes it.
 */
export function SendDialog({
  targets,
  onClose,
  onDone,
}: {
  /** Null when closed; one target sends one, several send a batch. */
  targets: SendTarget[] | null;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [results, setResults] = useState<SendResult[] | null>(null);
  const open = targets !== null;
  const many = (targets?.length ?? 0) > 1;
  const total = fromScaled(
    (targets ?? []).reduce((sum, target) => sum + toScaled(target.amount, DECIMALS.usdt), 0n),
    DECIMALS.usdt,
  );

  const close = () => {
    setResults(null);
    onClose();
  };
  const send = async () => {
    if (!targets || targets.length === 0) return;
    setSending(true);
    try {
      if (!many) {
        const answer = await sendWithdrawal({ id: (targets[0] as SendTarget).id });
        toast.success(
          answer.created
            ? t('msg:payoutSent', { confirmations: answer.payout.confirmationsNeeded })
            : t('msg:payoutAlreadySent'),
        );
        onDone();
        close();
      } else {
        const answer = await sendWithdrawals({ ids: targets.map((target) => target.id) });
        const refused = answer.results.filter((result) => result.refusal !== null).length;
        toast.success(t('msg:payoutsSent', { sent: answer.results.length - refused, refused }));
        setResults(answer.results);
        onDone();
      }
    } catch {
      // The API client showed the reason; nothing was sent for a refusal of the whole call.
    } finally {
      setSending(false);
    }
  };

  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={(next) => (next ? undefined : close())}
      title={
        many ? t('admin.payouts.batchTitle', { count: targets?.length ?? 0 }) : t('admin.payouts.sendTitle')
      }
      description={
        many
          ? t('admin.payouts.batchSummary', { count: targets?.length ?? 0, amount: formatAmount(total) })
          : targets?.[0]?.summary
      }
      maxWidthPx={560}
    >
      {results ? (
        <>
          <ul className="payout-results" aria-label={t('admin.payouts.resultsLabel')}>
            {results.map((result) => (
              <li key={result.id}>
                <strong>{t('admin.payouts.resultId', { id: result.id })}</strong>{' '}
                {result.refusal === null ? (
                  <span className="status status-sending">
                    {result.created ? t('admin.payouts.resultSent') : t('admin.payouts.resultAlready')}
                  </span>
                ) : (
                  <>
                    <span className="status status-failed">{t('admin.payouts.resultRefused')}</span>{' '}
                    <span>{result.refusal}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
          <div className="dialog-actions">
            <button type="button" className="button button-primary" onClick={close}>
              {t('admin.payouts.close')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{t('admin.payouts.sendWarning')}</p>
          {many ? (
            <ul className="payout-results">
              {targets?.map((target) => (
                <li key={target.id}>{target.summary}</li>
              ))}
            </ul>
          ) : null}
          <div className="dialog-actions">
            <button type="button" className="button button-ghost" onClick={close}>
              {t('admin.common.cancel')}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={sending}
              onClick={() => void send()}
            >
              {many
                ? t('admin.payouts.batchSubmit', { count: targets?.length ?? 0 })
                : t('admin.payouts.sendSubmit')}
            </button>
          </div>
        </>
      )}
    </ResponsiveDialog>
  );
}
