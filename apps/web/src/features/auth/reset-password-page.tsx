import {
  CodeModule,
  newPasswordSchema,
  PATHS,
  REDIRECT_DELAY_MS,
  strictEmailSchema,
  WITHDRAWAL,
} from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import * as z from 'zod';
import { ApiError } from '../../shared/api/api-client';
import { useRequestCode } from '../../shared/hooks/use-request-code';
import { CodeDialog } from '../../shared/ui/code-dialog';
import { Field } from '../../shared/ui/field';
import { Page } from '../../shared/ui/page';
import { PasswordInput } from '../../shared/ui/password-input';
import { PasswordRules } from '../../shared/ui/password-rules';
import { toast } from '../../shared/ui/toast';
import { resetPassword } from './api/reset-password';
import { verifyCode } from './api/verify-code';

const EmailStepSchema = z.object({ email: strictEmailSchema });
const PasswordStepSchema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((value) => value.password === value.confirm, { error: 'passwordsDoNotMatch', path: ['confirm'] });

type Step =
  | { name: 'email' }
  | { name: 'code'; email: string; seconds: number }
  | { name: 'password'; email: string; code: string };

/** spec: step 1 e-mail, step 2 code dialog (checked by the server), step 3 new and confirm password. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ name: 'email' });

  return (
    <Page title={t('pages.resetPassword.title')} intro={t('pages.resetPassword.intro')} narrow>
      <ol className="stepper" aria-label={t('auth.resetSteps')}>
        {(['email', 'code', 'password'] as const).map((name, index) => (
          <li key={name} aria-current={step.name === name ? 'step' : undefined}>
            <span className="stepper-number">{index + 1}</span> {t(`auth.resetStep.${name}`)}
          </li>
        ))}
      </ol>
      {step.name === 'password' ? (
        <NewPasswordForm email={step.email} code={step.code} />
      ) : (
        <EmailForm
          codeOpen={step.name === 'code'}
          resendAfterSeconds={step.name === 'code' ? step.seconds : undefined}
          onSent={(email, seconds) => setStep({ name: 'code', email, seconds })}
          onCancel={() => setStep({ name: 'email' })}
          onVerified={(email, code) => setStep({ name: 'password', email, code })}
          email={step.name === 'code' ? step.email : ''}
        />
      )}
    </Page>
  );
}

function EmailForm(props: {
  codeOpen: boolean;
  resendAfterSeconds: number | undefined;
  email: string;
  onSent(email: string, seconds: number): void;
  onCancel(): void;
  onVerified(email: string, code: string): void;
}) {
  const { t } = useTranslation();
  const requestCode = useRequestCode();
  const [sending, setSending] = useState(false);
  const form = useForm<z.input<typeof EmailStepSchema>, unknown, z.output<typeof EmailStepSchema>>({
    resolver: zodResolver(EmailStepSchema),
    mode: 'onChange',
    defaultValues: { email: props.email },
  });
  const valid = EmailStepSchema.safeParse(form.watch()).success;
  const error = form.formState.errors.email?.message;

  return (
    <>
      <form
        className="card form"
        noValidate
        onSubmit={form.handleSubmit(async ({ email }) => {
          setSending(true);
          try {
            props.onSent(email, await requestCode(CodeModule.ResetPassword, email));
          } catch {
            // The API client showed the reason.
          } finally {
            setSending(false);
          }
        })}
      >
        <Field id="reset-email" label={t('auth.email')} error={error && t(`msg:${error}`)}>
          <input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
        </Field>
        <button type="submit" className="button button-primary button-block" disabled={!valid || sending}>
          {sending ? t('common.loading') : t('auth.sendCode')}
        </button>
        <p className="form-footer">
          <Link to={PATHS.login}>{t('auth.backToLogin')}</Link>
        </p>
      </form>
      <CodeDialog
        open={props.codeOpen}
        onOpenChange={(open) => (open ? undefined : props.onCancel())}
        email={props.email}
        resendAfterSeconds={props.resendAfterSeconds}
        onConfirm={async (code) => {
          // spec: for module 2 the server checks the code before the password form shows.
          await verifyCode(props.email, CodeModule.ResetPassword, code);
          props.onVerified(props.email, code);
        }}
        onResend={() => requestCode(CodeModule.ResetPassword, props.email)}
      />
    </>
  );
}

function NewPasswordForm({ email, code }: { email: string; code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const form = useForm<z.input<typeof PasswordStepSchema>, unknown, z.output<typeof PasswordStepSchema>>({
    resolver: zodResolver(PasswordStepSchema),
    mode: 'onChange',
    defaultValues: { password: '', confirm: '' },
  });
  const { errors } = form.formState;
  const valid = PasswordStepSchema.safeParse(form.watch()).success;

  return (
    <form
      className="card form"
      noValidate
      onSubmit={form.handleSubmit(async ({ password }) => {
        setBusy(true);
        try {
          await resetPassword(email, code, password);
          // spec section 9: a reset pauses withdrawals for 72 hours; the toast outlives the redirect.
          toast.success(
            t('msg:passwordResetSuccessful'),
            t('auth.resetWithdrawalLock', { hours: WITHDRAWAL.lockAfterPasswordChangeHours }),
          );
          setTimeout(() => navigate(PATHS.login, { replace: true }), REDIRECT_DELAY_MS.afterReset);
        } catch (error) {
          setBusy(false);
          // An expired session was announced by the API client; nothing to add.
          if (error instanceof ApiError && error.kind === 'session') return;
          // spec section 8: 'Password reset failed', with the server's reason (or the network's).
          toast.error(
            t('msg:passwordResetFailed'),
            error instanceof ApiError ? error.message : t('msg:error'),
          );
        }
      })}
    >
      <Field
        id="reset-password"
        label={t('auth.newPassword')}
        hint={<PasswordRules value={form.watch('password')} />}
      >
        <PasswordInput autoComplete="new-password" {...form.register('password')} />
      </Field>
      <Field
        id="reset-confirm"
        label={t('auth.confirmPassword')}
        error={errors.confirm?.message && t(`msg:${errors.confirm.message}`)}
      >
        <PasswordInput autoComplete="new-password" {...form.register('confirm')} />
      </Field>
      <button type="submit" className="button button-primary button-block" disabled={!valid || busy}>
        {busy ? t('common.loading') : t('auth.resetSubmit')}
      </button>
    </form>
  );
}
