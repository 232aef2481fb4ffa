import { BindXmeUidRequestSchema } from '@elex/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../shared/ui/field';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';
import { toast } from '../../../shared/ui/toast';
import { useBindXmeUid } from '../api/bind-xme-uid';

/** Binds the member's XME account for the binding task (a dialog on desktop, a drawer on mobile). */
export function XmeBindDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation();
  const bind = useBindXmeUid();
  const [xmeUid, setXmeUid] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  // Closed, it forgets what was typed and what was wrong: reopened, it starts clean.
  const change = (next: boolean) => {
    if (!next) {
      setXmeUid('');
      setError(undefined);
    }
    onOpenChange(next);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = BindXmeUidRequestSchema.safeParse({ xmeUid });
    if (!parsed.success) {
      setError(t(`msg:${parsed.error.issues[0]?.message ?? 'invalidValue'}`));
      return;
    }
    setError(undefined);
    bind.mutate(parsed.data.xmeUid, {
      onSuccess: () => {
        toast.success(t('msg:bindingSuccessful'));
        change(false);
      },
    });
  };

  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={change}
      title={t('tasks.xmeTitle')}
      description={t('tasks.xmeIntro')}
    >
      <form className="form" noValidate onSubmit={onSubmit}>
        <Field id="xme-uid" label={t('tasks.xmeLabel')} error={error}>
          <input autoComplete="off" value={xmeUid} onChange={(event) => setXmeUid(event.target.value)} />
        </Field>
        <button type="submit" className="button button-primary button-block" disabled={bind.isPending}>
          {t('tasks.buttons.bind')}
        </button>
      </form>
    </ResponsiveDialog>
  );
}
