import { State } from '@elex/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { envelope, renderAt } from '../../test/helpers';
import ResetPasswordPage from './reset-password-page';
import { stubAuthServer, WAIT_MESSAGE } from './testing/stub-auth-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

async function askForCode() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(t('auth.email')), 'trader@example.com');
  await user.click(screen.getByRole('button', { name: t('auth.sendCode') }));
  const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
  return { user, dialog };
}

/** Steps 1 to 3: the e-mail, the right code, a new password; then submits it. */
async function resetWithNewPassword() {
  const { user, dialog } = await askForCode();
  await user.click(within(dialog).getAllByRole('textbox')[0] as HTMLElement);
  await user.keyboard('123456');
  await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
  await user.type(await screen.findByLabelText(t('auth.newPassword')), 'Fresh#pass9');
  await user.type(screen.getByLabelText(t('auth.confirmPassword')), 'Fresh#pass9');
  await user.click(screen.getByRole('button', { name: t('auth.resetSubmit') }));
}

describe('/resetpassword', () => {
  it('opens the code dialog with the seconds left when a code was sent under a minute ago', async () => {
    stubAuthServer({ coolDownSeconds: 15 });
    renderAt(<ResetPasswordPage />, '/resetpassword');
    const { dialog } = await askForCode();
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '00:15' }))).toBeInTheDocument();
    expect(await screen.findByText(WAIT_MESSAGE(15))).toBeInTheDocument();
  });

  it('shows "Password reset failed" with the server’s reason when the reset is refused', async () => {
    const server = stubAuthServer({
      reset: () =>
        envelope(null, State.Refused, 'The verification code has expired, please request a new one'),
    });
    renderAt(<ResetPasswordPage />, '/resetpassword');
    await resetWithNewPassword();
    expect(await screen.findByText(i18next.t('msg:passwordResetFailed'))).toBeInTheDocument();
    expect(
      screen.getByText('The verification code has expired, please request a new one'),
    ).toBeInTheDocument();
    expect(server.bodies('/elex/user/changePasswd')).toEqual([
      { email: 'trader@example.com', authCode: 123456, passwd: 'Fresh#pass9' },
    ]);
    // The form stays for another try.
    expect(screen.getByRole('button', { name: t('auth.resetSubmit') })).toBeEnabled();
  });

  it('shows "Password reset failed" with "Network anomaly" when the server cannot be reached', async () => {
    stubAuthServer({
      reset: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderAt(<ResetPasswordPage />, '/resetpassword');
    await resetWithNewPassword();
    expect(await screen.findByText(i18next.t('msg:passwordResetFailed'))).toBeInTheDocument();
    expect(screen.getByText(i18next.t('msg:networkAnomaly'))).toBeInTheDocument();
  });

  it('says on success that withdrawals are paused for 72 hours', async () => {
    stubAuthServer();
    renderAt(<ResetPasswordPage />, '/resetpassword');
    await resetWithNewPassword();
    expect(await screen.findByText(i18next.t('msg:passwordResetSuccessful'))).toBeInTheDocument();
    expect(screen.getByText(t('auth.resetWithdrawalLock', { hours: 72 }))).toBeInTheDocument();
  });
});
