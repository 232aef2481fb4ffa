import {
  CodeModule,
  EXCLUSIVE_SIGNUP,
  emailSchema,
  newPasswordSchema,
  normalizeEmail,
  PATHS,
  REDIRECT_DELAY_MS,
  tidyEmail,
} from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Gift } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import * as z from 'zod';
import { track } from '../../shared/analytics/track';
import { ApiError } from '../../shared/api/api-client';
import { useRequestCode } from '../../shared/hooks/use-request-code';
import { storage } from '../../shared/storage';
import { CodeDialog } from '../../shared/ui/code-dialog';
import { Field } from '../../shared/ui/field';
import { LegalDialog, type LegalDocument } from '../../shared/ui/legal-dialog';
import { Page } from '../../shared/ui/page';
import { PasswordInput } from '../../shared/ui/password-input';
import { PasswordRules } from '../../shared/ui/password-rules';
import { emailExists } from './api/check-email';
import { encrRefusal, encrRefusalOf } from './api/check-encr';
import { register } from './api/register';
import { useFinishLogin } from './hooks/use-finish-login';
import './auth.css';

const RegisterFormSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  inviteCode: z.string().trim().max(32),
  agreed: z.boolean().refine((value) => value, { error: 'agreementRequired' }),
  marketingConsent: z.boolean(),
});
type RegisterForm = z.input<typeof RegisterFormSchema>;
type RegisterValues = z.output<typeof RegisterFormSchema>;

export default function RegisterPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const finishLogin = useFinishLogin(REDIRECT_DELAY_MS.afterRegister);
  const requestCode = useRequestCode();
  // spec: the invite code comes from the inviteCode query or a stored one; encr is read-only.
  const [encr, setEncr] = useState(() => params.get('encr')?.trim() || storage.getEncr() || '');
  /** Why the server refuses the encr code (unknown, expired, disabled, used up), in its words. */
  const [encrError, setEncrError] = useState<string | null>(null);
  /** The values waiting for their code, and the seconds the dialog counts down from. */
  const [pending, setPending] = useState<(RegisterValues & { seconds: number }) | null>(null);
  const [sending, setSending] = useState(false);
  const [taken, setTaken] = useState(false);
  const [document, setDocument] = useState<LegalDocument | null>(null);
  const form = useForm<RegisterForm, unknown, RegisterValues>({
    resolver: zodResolver(RegisterFormSchema),
    mode: 'onChange',
    defaultValues: {
      email: '',
      password: '',
      inviteCode: params.get('inviteCode') ?? storage.getInviteCode() ?? '',
      agreed: true,
      marketingConsent: false,
    },
  });
  const { errors } = form.formState;
  const email = form.watch('email');
  const password = form.watch('password');
  const rulesPass = emailSchema.safeParse(email).success && newPasswordSchema.safeParse(password).success;
  const canSubmit = rulesPass && !taken && !sending && !encrError;

  // issue 11: a code that cannot be used is marked at once, before anything is typed.
  useEffect(() => {
    if (!encr) return;
    let current = true;
    void encrRefusal(encr).then((refusal) => {
      if (current) setEncrError(refusal);
    });
    return () => {
      current = false;
    };
  }, [encr]);

  /** A refused code must never hold the visitor up: it goes from the page, the address and storage. */
  const removeEncr = () => {
    setEncr('');
    setEncrError(null);
    storage.setEncr(null);
    if (params.has('encr')) {
      const next = new URLSearchParams(params);
      next.delete('encr');
      setParams(next, { replace: true });
    }
    // The field and its button are gone: the visitor carries on from the form's first field.
    form.setFocus('email');
  };

  const checkEmail = async () => {
    const parsed = emailSchema.safeParse(form.getValues('email'));
    if (!parsed.success) return;
    form.setValue('email', tidyEmail(form.getValues('email')));
    const exists = await emailExists(parsed.data);
    // A slow answer for an e-mail edited since must not mark (or clear) the one now in the field.
    if (normalizeEmail(form.getValues('email')) === parsed.data) setTaken(exists);
  };

  const onSubmit = async (values: RegisterValues) => {
    setSending(true);
    try {
      setPending({
        ...values,
        seconds: await requestCode(
          CodeModule.Register,
          values.email,
          encr || undefined,
          values.inviteCode || undefined,
        ),
      });
    } catch (error) {
      // The reason was shown (useRequestCode); a refused encr code is marked on its field too, and so
      // is an unknown invite code (issue 15: it was refused only after the mailed code was typed).
      const refusal = encrRefusalOf(error);
      if (refusal) setEncrError(refusal);
      if (error instanceof ApiError && (error.content as { field?: unknown } | null)?.field === 'code') {
        form.setError('inviteCode', { message: 'inviteCodeUnknown' }, { shouldFocus: true });
      }
    } finally {
      setSending(false);
    }
  };

  const onConfirm = async (code: string) => {
    if (!pending) return;
    try {
      const { token } = await register({
        email: pending.email,
        passwd: pending.password,
        code: pending.inviteCode || undefined,
        authcode: code,
        encr: encr || undefined,
        marketingConsent: pending.marketingConsent,
      });
      track('Register_success');
      setPending(null);
      finishLogin(token, PATHS.home);
    } catch (error) {
      track('Register_Error');
      const refusal = encrRefusalOf(error);
      // The code was spent or disabled since it was checked: back to the form, where it is marked.
      if (refusal) {
        setEncrError(refusal);
        setPending(null);
        return;
      }
      throw error;
    }
  };

  const emailError = errors.email?.message
    ? t(`msg:${errors.email.message}`)
    : taken
      ? t('msg:emailExists')
      : undefined;

  return (
    <Page title={t('pages.register.title')} intro={t('pages.register.intro')} narrow>
      <form className="card form" noValidate onSubmit={form.handleSubmit(onSubmit)}>
        <Field id="register-email" label={t('auth.email')} error={emailError}>
          <input
            type="email"
            autoComplete="email"
            inputMode="email"
            {...form.register('email', {
              onBlur: checkEmail,
              onChange: () => setTaken(false),
            })}
          />
        </Field>
        <Field id="register-password" label={t('auth.password')} hint={<PasswordRules value={password} />}>
          <PasswordInput autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Field
          id="register-invite"
          label={t('auth.inviteCodeOptional')}
          error={errors.inviteCode?.message && t(`msg:${errors.inviteCode.message}`)}
        >
          <input type="text" autoComplete="off" {...form.register('inviteCode')} />
        </Field>
        {encr ? (
          <div className="encr-field">
            <Field
              id="register-encr"
              label={t('auth.encrCode')}
              hint={encrError ? undefined : <EncrPromise />}
              error={encrError ?? undefined}
            >
              <input type="text" value={encr} readOnly />
            </Field>
            {encrError ? (
              <button type="button" className="button button-ghost" onClick={removeEncr}>
                {t('auth.encrRemove')}
              </button>
            ) : null}
          </div>
        ) : null}
        <div className="checkbox-field">
          <input
            id="register-agree"
            type="checkbox"
            {...form.register('agreed')}
            aria-describedby={errors.agreed ? 'register-agree-error' : undefined}
          />
          <label htmlFor="register-agree">
            <Trans
              i18nKey="auth.agreement"
              components={{
                terms: <button type="button" className="link-button" onClick={() => setDocument('terms')} />,
                privacy: (
                  <button type="button" className="link-button" onClick={() => setDocument('privacy')} />
                ),
              }}
            />
          </label>
        </div>
        {errors.agreed?.message ? (
          <p id="register-agree-error" className="field-error" role="alert">
            {t(`msg:${errors.agreed.message}`)}
          </p>
        ) : null}
        <div className="checkbox-field">
          <input id="register-marketing" type="checkbox" {...form.register('marketingConsent')} />
          <label htmlFor="register-marketing">{t('auth.marketingConsent')}</label>
        </div>
        <button type="submit" className="button button-primary button-block" disabled={!canSubmit}>
          {sending ? t('common.loading') : t('auth.registerSubmit')}
        </button>
        <p className="form-footer">
          {t('auth.haveAccount')}{' '}
          {/* Keeps redirect and the other query values, as the login page's register link does. */}
          <Link to={{ pathname: PATHS.login, search: params.toString() ? `?${params}` : '' }}>
            {t('nav.login')}
          </Link>
        </p>
      </form>
      <CodeDialog
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        email={pending?.email ?? ''}
        resendAfterSeconds={pending?.seconds}
        onConfirm={onConfirm}
        onResend={() => requestCode(CodeModule.Register, pending?.email, encr || undefined)}
      />
      <LegalDialog
        document={document}
        onClose={() => setDocument(null)}
        onConfirm={() => form.setValue('agreed', true, { shouldValidate: true })}
      />
    </Page>
  );
}

function EncrPromise() {
  const { t } = useTranslation();
  return (
    <span className="promise">
      <Gift size={16} aria-hidden="true" />{' '}
      {t('auth.encrPromise', { xme: EXCLUSIVE_SIGNUP.xmeEnergy, points: EXCLUSIVE_SIGNUP.points })}
    </span>
  );
}
