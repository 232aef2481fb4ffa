import { State } from '@elex/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { envelope, renderAt, renderRoutes } from '../../test/helpers';
import ResetPasswordPage from './reset-password-page';
import { expectCoolDownNote, GOOD_CODE, stubAuthServer } from './testing/stub-auth-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

async function askForCode(user = userEvent.setup()) {
  await user.type(screen.getByLabelText(t('auth.email')), 'trader@example.com');
  await user.click(screen.getByRole('button', { name: t('auth.sendCode') }));
  const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
  return { user, dialog };
}

async function confirmCode(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, code: string) {
  await user.click(within(dialog).getAllByRole('textbox')[0] as HTMLElement);
  await user.keyboard(code);
  await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
}

/** Steps 1 to 3: the e-mail, the right code, a new password; then submits it. */
async function resetWithNewPassword(user = userEvent.setup()) {
  const { dialog } = await askForCode(user);
  await confirmCode(user, dialog, GOOD_CODE);
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
    await expectCoolDownNote(15);
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

  it('goes to /login 600 ms after a successful reset', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubAuthServer();
    const { router } = renderRoutes(
      [
        { path: '/resetpassword', element: <ResetPasswordPage /> },
        { path: '/login', element: <h1>login page</h1> },
      ],
      '/resetpassword',
    );
    await resetWithNewPassword(userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));
    await screen.findByText(i18next.t('msg:passwordResetSuccessful'));
    act(() => {
      vi.advanceTimersByTime(550);
    });
    expect(router.state.location.pathname).toBe('/resetpassword');
    act(() => {
      vi.advanceTimersByTime(50);
    });
    expect(router.state.location.pathname).toBe('/login');
  });
});

describe('/resetpassword: the e-mail (spec section 5: the stricter pattern)', () => {
  it("says 'please enter a correct email' for an address the simple pattern would take", async () => {
    stubAuthServer();
    const user = userEvent.setup();
    renderAt(<ResetPasswordPage />, '/resetpassword');
    const email = screen.getByLabelText(t('auth.email'));
    const send = screen.getByRole('button', { name: t('auth.sendCode') });
    expect(send).toBeDisabled();

    for (const address of ['trader@example.c', 'trader@exa_mple.com', 'tra(der@example.com']) {
      await user.clear(email);
      await user.type(email, address);
      expect(email, address).toHaveAccessibleDescription(i18next.t('msg:emailInvalidStrict'));
      expect(send).toBeDisabled();
    }
    await user.clear(email);
    await user.type(email, 'trader@example.com');
    expect(email).not.toHaveAccessibleDescription(i18next.t('msg:emailInvalidStrict'));
    expect(send).toBeEnabled();
  });
});

describe('/resetpassword: the code, checked by the server before the password form', () => {
  it('keeps the dialog and shows no password form when the server refuses the code', async () => {
    const server = stubAuthServer();
    renderAt(<ResetPasswordPage />, '/resetpassword');
    const { user, dialog } = await askForCode();
    expect(server.bodies('/elex/user/verifyCode')).toEqual([{ module: 2, email: 'trader@example.com' }]);

    await confirmCode(user, dialog, '654321');
    expect(await screen.findByText('Invalid verification code')).toBeInTheDocument();
    expect(server.bodies('/elex/user/verifyCode2')).toEqual([
      { email: 'trader@example.com', module: 2, authCode: 654321 },
    ]);
    expect(dialog).toBeInTheDocument();
    expect(screen.queryByLabelText(t('auth.newPassword'))).not.toBeInTheDocument();

    // The right digits typed over the wrong ones lead on to step 3.
    await confirmCode(user, dialog, GOOD_CODE);
    expect(await screen.findByLabelText(t('auth.newPassword'))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const steps = within(screen.getByRole('list', { name: t('auth.resetSteps') })).getAllByRole('listitem');
    expect(steps[2]).toHaveAttribute('aria-current', 'step');
    expect(server.bodies('/elex/user/changePasswd')).toEqual([]);
  });
});

describe('/resetpassword: the new password', () => {
  it("says 'Passwords Do Not Match' and keeps submit disabled until the two agree", async () => {
    stubAuthServer();
    renderAt(<ResetPasswordPage />, '/resetpassword');
    const { user, dialog } = await askForCode();
    await confirmCode(user, dialog, GOOD_CODE);
    const password = await screen.findByLabelText(t('auth.newPassword'));
    const confirm = screen.getByLabelText(t('auth.confirmPassword'));
    const submit = screen.getByRole('button', { name: t('auth.resetSubmit') });

    await user.type(password, 'Fresh#pass9');
    await user.type(confirm, 'Fresh#pass8');
    expect(confirm).toHaveAccessibleDescription(i18next.t('msg:passwordsDoNotMatch'));
    expect(submit).toBeDisabled();

    await user.clear(confirm);
    await user.type(confirm, 'Fresh#pass9');
    expect(confirm).not.toHaveAccessibleDescription(i18next.t('msg:passwordsDoNotMatch'));
    expect(submit).toBeEnabled();
  });

  it('holds the new password to the register rules', async () => {
    stubAuthServer();
    renderAt(<ResetPasswordPage />, '/resetpassword');
    const { user, dialog } = await askForCode();
    await confirmCode(user, dialog, GOOD_CODE);
    await user.type(await screen.findByLabelText(t('auth.newPassword')), 'freshpass');
    await user.type(screen.getByLabelText(t('auth.confirmPassword')), 'freshpass');
    expect(screen.getByRole('button', { name: t('auth.resetSubmit') })).toBeDisabled();
  });
});
