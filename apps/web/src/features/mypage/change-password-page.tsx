import { loginPasswordSchema, newPasswordSchema, WITHDRAWAL } from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod';
import { ApiError } from '../../shared/api/api-client';
import { formatLocalTime } from '../../shared/i18n/intl-formats';
import { profileQuery } from '../../shared/queries/get-profile';
import { Field } from '../../shared/ui/field';
import { Page } from '../../shared/ui/page';
import { PasswordInput } from '../../shared/ui/password-input';
import { PasswordRules } from '../../shared/ui/password-rules';
import { toast } from '../../shared/ui/toast';
import { updatePassword } from './api/account';

const ChangePasswordSchema = z
  .object({ oldPassword: loginPasswordSchema, password: newPasswordSchema, confirm: z.string() })
  .refine((value) => value.password === value.confirm, { error: 'passwordsDoNotMatch', path: ['confirm'] });
type ChangePasswordForm = z.input<typeof ChangePasswordSchema>;

export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [lockedUntil, setLockedUntil] = useState<string | null>(null);
  const form = useForm<ChangePasswordForm, unknown, z.output<typeof ChangePasswordSchema>>({
    resolver: zodResolver(ChangePasswordSchema),
    mode: 'onTouched',
    defaultValues: { oldPassword: '', password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const valid = ChangePasswordSchema.safeParse(form.watch()).success;
  const message = (key: string | undefined) => (key ? t(`msg:${key}`) : undefined);

  return (
    <Page
      title={t('pages.changePassword.title')}
      intro={t('pages.changePassword.intro', { hours: WITHDRAWAL.lockAfterPasswordChangeHours })}
    >
      {lockedUntil ? (
        <p className="card notice" role="status">
          {t('mypage.withdrawalLockedUntil', {
            time: formatLocalTime(lockedUntil),
          })}
        </p>
      ) : null}
      <form
        className="card form"
        noValidate
        onSubmit={form.handleSubmit(async ({ oldPassword, password }) => {
          try {
            const result = await updatePassword({ oldPasswd: oldPassword, passwd: password });
            toast.success(t('msg:passwordChanged'));
            setLockedUntil(result.withdrawalLockedUntil);
            form.reset();
            await client.invalidateQueries({ queryKey: profileQuery.queryKey });
          } catch (error) {
            // The API client showed the reason; a wrong current password is marked on its field too.
            if (
              error instanceof ApiError &&
              (error.content as { field?: unknown } | null)?.field === 'oldPasswd'
            ) {
              form.setError('oldPassword', { message: 'passwordIncorrect' }, { shouldFocus: true });
            }
          }
        })}
      >
        <Field id="change-old" label={t('mypage.oldPassword')} error={message(errors.oldPassword?.message)}>
          <PasswordInput autoComplete="current-password" {...form.register('oldPassword')} />
        </Field>
        <Field
          id="change-new"
          label={t('auth.newPassword')}
          hint={<PasswordRules value={form.watch('password')} />}
        >
          <PasswordInput autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Field id="change-confirm" label={t('auth.confirmPassword')} error={message(errors.confirm?.message)}>
          <PasswordInput autoComplete="new-password" {...form.register('confirm')} />
        </Field>
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={!valid || isSubmitting}
        >
          {t('mypage.changeSubmit')}
        </button>
      </form>
    </Page>
  );
}
