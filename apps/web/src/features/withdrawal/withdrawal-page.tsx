import { CodeModule, PATHS, WITHDRAWAL, type Withdrawal, type WithdrawalRecord } from '@elex/contract';
import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, CircleX, Lock } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../shared/api/api-client';
import { newRequestId } from '../../shared/api/request-id';
import { useExchangeList } from '../../shared/exchanges/exchange-list-query';
import { useRequestCode } from '../../shared/hooks/use-request-code';
import { formatLocalTime } from '../../shared/i18n/intl-formats';
import { useProfile } from '../../shared/queries/get-profile';
import { useWithdrawable } from '../../shared/queries/get-withdrawable';
import { CodeDialog } from '../../shared/ui/code-dialog';
import { LoadError } from '../../shared/ui/load-error';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { ResponsiveDialog } from '../../shared/ui/responsive-dialog';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { applyDeposit } from './api/apply-deposit';
import { cancelDeposit } from './api/cancel-deposit';
import { useWithdrawals } from './api/get-withdrawals';
import { verifyDepositCode } from './api/verify-deposit-code';
import { WithdrawalForm, type WithdrawalValues } from './components/withdrawal-form';
import { WithdrawalTable } from './components/withdrawal-table';
import { formatWithdrawalAmount } from './format-amount';
import './withdrawal.css';

const PAGE_SIZE = 10;

/** A refusal because an import is crediting this balance right now: the same request works soon. */
const isAccountBusy = (error: unknown) =>
  error instanceof ApiError &&
  error.kind === 'refused' &&
  (error.content as { messageKey?: unknown } | null)?.messageKey === 'accountBusy';

type Outcome = { kind: 'success'; withdrawal: Withdrawal } | { kind: 'failure'; message: string } | null;

/**
 * /withdrawal (spec: withdraw; issue 6): choose a bound UID, the Polygon address and the amount (at
 * least 50 USDT of the UID's cashback plus event rewards), confirm with an e-mailed code; the list of
 * the member's withdrawals with their status, the payout transaction and a cancel while under review.
 */
export default function WithdrawalPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  // ?platId=&uid= (a UID's cashback page, the deletion dialog's "withdraw first") chooses that UID.
  const [params] = useSearchParams();
  const preferred = { platId: Number(params.get('platId')), uid: params.get('uid') ?? '' };
  const withdrawable = useWithdrawable();
  const profile = useProfile();
  const exchanges = useExchangeList();
  const exchangeName = (platId: number) =>
    exchanges.data?.find((entry) => entry.id === platId)?.name ?? `#${platId}`;
  const [page, setPage] = useState(1);
  const records = useWithdrawals({ page, pageSize: PAGE_SIZE });
  const [requestId, setRequestId] = useState(newRequestId);
  const requestCode = useRequestCode();
  /** The withdrawal waiting for its code, and the seconds the code dialog counts down from. */
  const [awaitingCode, setAwaitingCode] = useState<{ values: WithdrawalValues; seconds: number } | null>(
    null,
  );
  const [outcome, setOutcome] = useState<Outcome>(null);
  // Where focus goes once the outcome closes (it is cleared by then): see fallbackFocus below.
  const lastOutcome = useRef<'success' | 'failure'>('failure');
  const [formKey, setFormKey] = useState(0);
  const [cancelling, setCancelling] = useState<WithdrawalRecord | null>(null);
  const [isCancelBusy, setCancelBusy] = useState(false);

  const refresh = () => client.invalidateQueries({ queryKey: ['me'] });

  // 'Verification code sent' on success; asked again within 60 s, the code already mailed still
  // works, so the dialog opens anyway with the seconds left.
  const requestOwnCode = () => requestCode(CodeModule.OwnAddress);

  const startWithdrawal = async (values: WithdrawalValues) => {
    try {
      setAwaitingCode({ values, seconds: await requestOwnCode() });
    } catch {
      // The API client showed the reason.
    }
  };

  const confirmWithdrawal = async (code: string) => {
    if (!awaitingCode) return;
    // A wrong code throws here: the API client says so and the dialog stays open for another try.
    await verifyDepositCode(code);
    let keepDialog = false;
    try {
      const withdrawal = await applyDeposit({ requestId, ...awaitingCode.values, authCode: code });
      setRequestId(newRequestId());
      lastOutcome.current = 'success';
      setOutcome({ kind: 'success', withdrawal });
      setFormKey((key) => key + 1);
      setPage(1);
    } catch (error) {
      // The balance is being credited right now (docs/ledger.md, "Waiting for an account"): nothing
      // was made and the code still works, so the dialog stays with the digits for the same confirm in
      // a minute, and a toast says why (the call is silent: its other refusals get the failure dialog).
      if (error instanceof ApiError && isAccountBusy(error)) {
        keepDialog = true;
        toast.error(error.message);
        throw error;
      }
      if (error instanceof ApiError && error.kind === 'session') return;
      // Refused: the next try is a new request. No answer: the retry must be the same request.
      if (error instanceof ApiError && error.kind === 'refused') setRequestId(newRequestId());
      lastOutcome.current = 'failure';
      setOutcome({ kind: 'failure', message: error instanceof ApiError ? error.message : t('msg:error') });
    } finally {
      if (!keepDialog) setAwaitingCode(null);
      void refresh();
    }
  };

  const confirmCancel = async () => {
    if (!cancelling) return;
    setCancelBusy(true);
    try {
      await cancelDeposit(cancelling.id);
      toast.success(t('msg:withdrawalCancelled'));
      setCancelling(null);
    } catch {
      // The API client showed why (e.g. already decided); the list below is refreshed.
      setCancelling(null);
    } finally {
      setCancelBusy(false);
      void refresh();
    }
  };

  const lockedUntil = withdrawable.data?.lockedUntil ?? null;
  const lockTime = lockedUntil ? formatLocalTime(lockedUntil) : '';

  return (
    <Page
      title={t('pages.withdrawal.title')}
      intro={t('pages.withdrawal.intro', { minimum: WITHDRAWAL.minimumUsdt })}
      wide
    >
      {lockedUntil ? (
        <p className="card notice lock-notice" role="status">
          <Lock size={18} aria-hidden="true" />
          <span>{t('msg:withdrawalLocked', { time: lockTime })}</span>
        </p>
      ) : null}
      {withdrawable.isPending ? (
        <Skeleton lines={5} />
      ) : withdrawable.data && withdrawable.data.bindings.length > 0 ? (
        <WithdrawalForm
          key={formKey}
          withdrawable={withdrawable.data}
          preferred={preferred}
          exchangeName={exchangeName}
          isLocked={lockedUntil !== null}
          onSubmit={startWithdrawal}
        />
      ) : withdrawable.data ? (
        <div className="card no-binding">
          <p>{t('withdrawal.noBinding', { minimum: WITHDRAWAL.minimumUsdt })}</p>
          <Link to={PATHS.uidLinking} className="button button-primary">
            {t('withdrawal.bindLink')}
          </Link>
        </div>
      ) : (
        <LoadError isRetrying={withdrawable.isFetching} onRetry={() => void withdrawable.refetch()} />
      )}

      <section aria-labelledby="withdrawals-title" className="records-section">
        <h2 id="withdrawals-title" tabIndex={-1}>
          {t('withdrawal.historyTitle')}
        </h2>
        {records.data ? (
          <>
            <WithdrawalTable
              records={records.data.records}
              exchangeName={exchangeName}
              onCancel={setCancelling}
            />
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={records.data.total}
              onPage={setPage}
              label={t('withdrawal.paging')}
            />
          </>
        ) : records.isError ? (
          <LoadError isRetrying={records.isFetching} onRetry={() => void records.refetch()} />
        ) : (
          <Skeleton lines={3} />
        )}
      </section>

      <CodeDialog
        open={awaitingCode !== null}
        onOpenChange={(open) => (open ? undefined : setAwaitingCode(null))}
        email={profile.data?.email ?? ''}
        resendAfterSeconds={awaitingCode?.seconds}
        onConfirm={confirmWithdrawal}
        onResend={requestOwnCode}
      />

      <ResponsiveDialog
        open={outcome !== null}
        onOpenChange={(open) => (open ? undefined : setOutcome(null))}
        title={outcome?.kind === 'success' ? t('msg:withdrawalSuccessful') : t('msg:withdrawalFailed')}
        // It opens as the code dialog closes, so its opener (that dialog's confirm) is gone. After a
        // failure focus goes back to the amount, where the member tries again; after a success to the
        // list that now shows the withdrawal (the emptied amount would say "required" once left).
        fallbackFocus={() =>
          document.getElementById(
            lastOutcome.current === 'success' ? 'withdrawals-title' : 'withdrawal-amount',
          )
        }
      >
        {outcome?.kind === 'success' ? (
          <div className="result-dialog">
            <CircleCheck size={40} aria-hidden="true" className="success" />
            <p className="break-anywhere">
              {t('withdrawal.successBody', {
                amount: formatWithdrawalAmount(outcome.withdrawal.amount),
                address: outcome.withdrawal.address,
                hours: WITHDRAWAL.reviewHours,
              })}
            </p>
            <button
              type="button"
              className="button button-primary button-block"
              onClick={() => setOutcome(null)}
            >
              {t('common.close')}
            </button>
          </div>
        ) : outcome?.kind === 'failure' ? (
          <div className="result-dialog">
            <CircleX size={40} aria-hidden="true" className="danger" />
            <p role="alert">{outcome.message}</p>
            <button
              type="button"
              className="button button-primary button-block"
              onClick={() => setOutcome(null)}
            >
              {t('common.close')}
            </button>
          </div>
        ) : null}
      </ResponsiveDialog>

      <ResponsiveDialog
        open={cancelling !== null}
        onOpenChange={(open) => (open ? undefined : setCancelling(null))}
        title={t('withdrawal.cancelTitle')}
      >
        <p>
          {t('withdrawal.cancelBody', {
            amount: cancelling ? formatWithdrawalAmount(cancelling.amount) : '',
          })}
        </p>
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={() => setCancelling(null)}>
            {t('withdrawal.keep')}
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={isCancelBusy}
            onClick={confirmCancel}
          >
            {t('withdrawal.cancelConfirm')}
          </button>
        </div>
      </ResponsiveDialog>
    </Page>
  );
}
