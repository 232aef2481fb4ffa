import { type AdminSupportDetail, DECIMALS, fromScaled, supportTextSchema, toScaled } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../shared/ui/field';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';
import { toast } from '../../../shared/ui/toast';
import { closeSupportRequest } from '../api/close-support-request';
import { moveSupportBinding } from '../api/move-support-binding';
import { verifySupportOwnership } from '../api/verify-support-ownership';
import { formatAmount } from '../format';
import { fieldError } from './field-error';

export type SupportAction = 'close' | 'moveBinding' | 'verifyOwnership';

const SUCCESS = {
  close: 'msg:supportClosedDone',
  moveBinding: 'msg:supportMoved',
  verifyOwnership: 'msg:supportVerified',
} as const;

/**
 * Asks before an operator's decision on a request, saying exactly what it will do to whom, then
 * calls the server and shows its message. Closing may carry a last message to the member.
 */
export function SupportActionDialog({
  action,
  request,
  exchangeName,
  onClose,
  onDone,
}: {
  action: SupportAction | null;
  request: AdminSupportDetail;
  exchangeName(platId: number): string;
  onClose(): void;
  onDone(detail: AdminSupportDetail): void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string | undefined>();
  const [isBusy, setBusy] = useState(false);
  const uid = request.uidState;
  const facts = {
    id: request.id,
    exchange: uid ? exchangeName(uid.platId) : '',
    uid: uid?.uid ?? '',
    balance: uid ? formatAmount(uid.balance) : '',
    holder: uid?.holder?.email ?? t('admin.members.deletedAccount'),
    member: request.email ?? t('admin.members.deletedAccount'),
    address: request.address ?? '',
  };
  // What the move leaves behind: the invite bonuses the holder's inviter was paid on this UID.
  const bonusMicro = (uid?.holderInviterBonuses ?? []).reduce(
    (sum, bonus) => sum + toScaled(bonus.amount, DECIMALS.usdt),
    0n,
  );
  const bonusNote =
    bonusMicro > 0n
      ? t('admin.support.moveBonusNote', { amount: formatAmount(fromScaled(bonusMicro, DECIMALS.usdt)) })
      : '';
  const copy = {
    close: {
      title: t('admin.support.closeTitle'),
      body: t(
        request.kind === 'uidBoundByOther' ? 'admin.support.closeBodyDispute' : 'admin.support.closeBody',
        facts,
      ),
      confirm: t('admin.support.closeConfirm'),
    },
    moveBinding: {
      title: t('admin.support.moveTitle'),
      body: [t('admin.support.moveBody', facts), bonusNote].filter(Boolean).join(' '),
      confirm: t('admin.support.moveConfirm'),
    },
    verifyOwnership: {
      title: t('admin.support.verifyTitle'),
      body: t(
        request.kind === 'uidBoundByOther' ? 'admin.support.verifyBodyDispute' : 'admin.support.verifyBody',
        facts,
      ),
      confirm: t('admin.support.verifyConfirm'),
    },
  };
  const shown = action ? copy[action] : null;

  const close = () => {
    setText('');
    setTextError(undefined);
    onClose();
  };
  const confirm = async () => {
    if (!action) return;
    const lastWords = text.trim() === '' ? undefined : supportTextSchema.safeParse(text);
    if (lastWords && !lastWords.success) {
      setTextError(fieldError(t, lastWords.error.issues[0]?.message));
      return;
    }
    setBusy(true);
    try {
      const detail =
        action === 'close'
          ? await closeSupportRequest({ id: request.id, ...(lastWords ? { text: lastWords.data } : {}) })
          : action === 'moveBinding'
            ? await moveSupportBinding(request.id)
            : await verifySupportOwnership(request.id);
      toast.success(t(SUCCESS[action]));
      setText('');
      setTextError(undefined);
      onDone(detail);
    } catch {
      // The API client showed the server's reason (a withdrawal under review, the request closed meanwhile…).
    } finally {
      setBusy(false);
    }
  };

  return (
    <ResponsiveDialog
      open={action !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={shown?.title ?? ''}
      description={shown?.body}
      maxWidthPx={520}
    >
      <form
        className="form admin-dialog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        {action === 'close' ? (
          <Field
            id="support-close-text"
            label={t('admin.support.closeText')}
            hint={t('admin.support.closeTextHint')}
            error={textError}
          >
            <textarea
              className="input"
              rows={3}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setTextError(undefined);
              }}
            />
          </Field>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={close}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={isBusy}>
            {shown?.confirm}
          </button>
        </div>
      </form>
    </ResponsiveDialog>
  );
}
