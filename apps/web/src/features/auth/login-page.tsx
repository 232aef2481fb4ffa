import {
  CodeModule,
  emailSchema,
  loginPasswordSchema,
  normalizeEmail,
  PASSWORD,
  PATHS,
  REDIRECT_DELAY_MS,
  SIMPLE_EMAIL_PATTERN,
} from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import * as z from 'zod';
import { track } from '../../shared/analytics/track';
import { ApiError } from '../../shared/api/api-client';
import { useRequestCode } from '../../shared/hooks/use-request-code';
import { safeRedirectTarget } from '../../shared/navigation/login-redirect';
import { CodeDialog } from '../../shared/ui/code-dialog';
import { Field } from '../../shared/ui/field';
import { Page } from '../../shared/ui/page';
import { PasswordInput } from '../../shared/ui/password-input';
import { login } from './api/login';
import { useFinishLogin } from './hooks/use-finish-login';
import './auth.css';

const LoginFormSchema = z.object({ email: emailSchema, password: loginPasswordSchema });
type LoginForm = z.input<typeof LoginFormSchema>;
type LoginValues = z.output<typeof LoginFormSchema>;

/** The message key a refusal names in its content, if it names one. */
function refusalKeyOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.kind !== 'refused') return undefined;
  const key = (error.content as { messageKey?: unknown } | null)?.messageKey;
  return typeof key === 'string' ? key : undefined;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const finishLogin = useFinishLogin(REDIRECT_DELAY_MS.afterLogin);
  const requestCode = useRequestCode();
  /** The values waiting for their code, and the seconds the dialog counts down from. */
  const [pending, setPending] = useState<(LoginValues & { seconds: number }) | null>(null);
  const [sending, setSending] = useState(false);
  /** The e-mail the server said has no account (issue 15): the page offers to register with it. */
  const [unregistered, setUnregistered] = useState<string | null>(null);
  const form = useForm<LoginForm, unknown, LoginValues>({
    resolver: zodResolver(LoginFormSchema),
    mode: 'onTouched',
    defaultValues: { email: '', password: '' },
  });
  const email = normalizeEmail(form.watch('email'));
  const password = form.watch('password');
  // spec: submit stays disabled until the e-mail matches the simple pattern and the password has 6+ characters, and while loading.
  const canSubmit =
    SIMPLE_EMAIL_PATTERN.test(email) && password.length >= PASSWORD.loginMinLength && !sending;
  const { errors } = form.formState;

  const onSubmit = async (values: LoginValues) => {
    setSending(true);
    setUnregistered(null);
    try {
      setPending({ ...values, seconds: await requestCode(CodeModule.Login, values.email) });
    } catch (error) {
      // spec section 4: a failed login sends Login_Error, also when it fails at the code request (the
      // reason is shown already).
      track('Login_Error');
      if (refusalKeyOf(error) === 'loginEmailNotRegistered') setUnregistered(values.email);
    } finally {
      setSending(false);
    }
  };

  const onConfirm = async (code: string) => {
    if (!pending) return;
    try {
      const { token } = await login({ email: pending.email, passwd: pending.password, authcode: code });
      track('Login_success');
      setPending(null);
      finishLogin(token, safeRedirectTarget(params.get('redirect')));
    } catch (error) {
      track('Login_Error');
      throw error;
    }
  };

  return (
    <Page title={t('pages.login.title')} intro={t('pages.login.intro')} narrow>
      <form className="card form" noValidate onSubmit={form.handleSubmit(onSubmit)}>
        <Field
          id="login-email"
          label={t('auth.email')}
          error={errors.email?.message && t(`msg:${errors.email.message}`)}
        >
          <input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
        </Field>
        <Field
          id="login-password"
          label={t('auth.password')}
          error={errors.password?.message && t(`msg:${errors.password.message}`)}
        >
          <PasswordInput autoComplete="current-password" {...form.register('password')} />
        </Field>
        {unregistered ? (
          <p className="field-error" role="alert">
            {t('msg:loginEmailNotRegistered')}{' '}
            <Link to={{ pathname: PATHS.register, search: params.toString() ? `?${params}` : '' }}>
              {t('nav.register')}
            </Link>
          </p>
        ) : null}
        <div className="form-row-links">
          <Link to={PATHS.resetPassword}>{t('auth.forgotPassword')}</Link>
        </div>
        <button type="submit" className="button button-primary button-block" disabled={!canSubmit}>
          {sending ? t('common.loading') : t('auth.loginSubmit')}
        </button>
        <p className="form-footer">
          {t('auth.noAccount')}{' '}
          <Link to={{ pathname: PATHS.register, search: params.toString() ? `?${params}` : '' }}>
            {t('nav.register')}
          </Link>
        </p>
      </form>
      <CodeDialog
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        email={pending?.email ?? ''}
        resendAfterSeconds={pending?.seconds}
        onConfirm={onConfirm}
        onResend={() => requestCode(CodeModule.Login, pending?.email)}
      />
    </Page>
  );
}
