import { loginPasswordSchema, PATHS } from '@elex/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Field } from '../../../shared/ui/field';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';
import { toast } from '../../../shared/ui/toast';
import { PasswordInput } from '../../auth/components/password-input';
import { deleteAccount } from '../api/account';

/** Deletion says exactly what is lost (terms: usage data, rewards, the e-mail can never register again). */
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

  return (
    <ResponsiveDialog open={open} onOpenChange={onOpenChange} title={t('mypage.deleteTitle')}>
      <form
        className="form"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          if (!parsed.success) return;
          setBusy(true);
          try {
            await deleteAccount(parsed.data);
            client.clear();
            toast.success(t('msg:accountDeleted'));
            navigate(PATHS.home, { replace: true });
          } catch {
            setBusy(false);
          }
        }}
      >
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
          <button type="submit" className="button button-danger" disabled={!parsed.success || busy}>
            {t('mypage.deleteConfirm')}
          </button>
        </div>
      </form>
    </ResponsiveDialog>
  );
}
