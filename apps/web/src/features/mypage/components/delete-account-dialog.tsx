import { forfeitOnDeletion, loginPasswordSchema, PATHS } from '@elex/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { withdrawableQuery } from '../../../shared/queries/get-withdrawable';
import { Field } from '../../../shared/ui/field';
import { LoadError } from '../../../shared/ui/load-error';
import { PasswordInput } from '../../../shared/ui/password-input';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';
import { Skeleton } from '../../../shared/ui/skeleton';
import { toast } from '../../../shared/ui/toast';
import { deleteAccount } from '../api/account';
import { ForfeitSummary } from './forfeit-summary';

/**
 * Deletion says exactly what is lost (terms: usage data, rewards, the e-mail can never register
 * again), and names the money: per bound UID, the rewards and the total, with a way to withdraw first
 * (issue 11). The figures are read fresh when the dialog opens, and the deletion sends the total it
 * showed: the server refuses if the money held has changed since, and the dialog then reloads it.
 */
export function DeleteAccountDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const parsed = loginPasswordSchema.safeParse(password);
  const holdings = useQuery({ ...withdrawableQuery, enabled: open, staleTime: 0 });
  // Only figures that are loaded and current can be confirmed: never a total on its way to change.
  const shown = holdings.data && !holdings.isFetching ? forfeitOnDeletion(holdings.data) : null;

  return (
    <ResponsiveDialog open={open} onOpenChange={onOpenChange} title={t('mypage.deleteTitle')}>
      <form
        className="form"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          if (!parsed.success || shown === null) return;
          setBusy(true);
          try {
            await deleteAccount({ password: parsed.data, forfeitTotal: shown });
            client.clear();
            toast.success(t('msg:accountDeleted'));
            navigate(PATHS.home, { replace: true });
          } catch {
            // The API client showed why; if the money changed meanwhile, the new figures show here.
            setBusy(false);
            void holdings.refetch();
          }
        }}
      >
        <div className="forfeit">
          {holdings.data ? (
            <ForfeitSummary withdrawable={holdings.data} />
          ) : holdings.isError ? (
            <LoadError
              message={t('mypage.deleteForfeitLoadFailed')}
              isRetrying={holdings.isFetching}
              onRetry={() => void holdings.refetch()}
            />
          ) : (
            <Skeleton lines={3} />
          )}
        </div>
        <ul className="warning-list">
          <li>{t('mypage.deleteLossData')}</li>
          <li>{t('mypage.deleteLossMoney')}</li>
          <li>{t('mypage.deleteLossEmail')}</li>
          <li>{t('mypage.deleteKeptRecords')}</li>
        </ul>
        <Field id="delete-password" label={t('mypage.deletePassword')}>
          <PasswordInput
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={() => onOpenChange(false)}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button button-danger"
            disabled={!parsed.success || shown === null || busy}
          >
            {t('mypage.deleteConfirm')}
          </button>
        </div>
      </form>
    </ResponsiveDialog>
  );
}
