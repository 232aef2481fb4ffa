import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, logIn, renderAt } from '../../test/helpers';
import { stubApi } from '../points/test-api';
import ChangePasswordPage from './change-password-page';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const LOCKED_UNTIL = '2026-03-13T10:00:00.000Z';

const oldInput = () => screen.getByLabelText(t('mypage.oldPassword'));
const newInput = () => screen.getByLabelText(t('auth.newPassword'));
const confirmInput = () => screen.getByLabelText(t('auth.confirmPassword'));
const submitButton = () => screen.getByRole('button', { name: t('mypage.changeSubmit') });

async function fill(user: ReturnType<typeof userEvent.setup>, fresh = 'Fresh#pass9', again = fresh) {
  await user.type(oldInput(), 'Secret#123');
  await user.type(newInput(), fresh);
  await user.type(confirmInput(), again);
}

beforeEach(() => logIn());

describe('/mypage/changepassword', () => {
  it("keeps the button disabled until the rules hold, and says 'Passwords Do Not Match'", async () => {
    stubApi({});
    const user = userEvent.setup();
    renderAt(<ChangePasswordPage />, '/mypage/changepassword');
    expect(submitButton()).toBeDisabled();

    await fill(user, 'Fresh#pass9', 'Fresh#pass8');
    await user.tab();
    expect(confirmInput()).toHaveAccessibleDescription(i18next.t('msg:passwordsDoNotMatch'));
    expect(submitButton()).toBeDisabled();

    await user.clear(confirmInput());
    await user.type(confirmInput(), 'Fresh#pass9');
    expect(confirmInput()).not.toHaveAccessibleDescription(i18next.t('msg:passwordsDoNotMatch'));
    expect(submitButton()).toBeEnabled();
  });

  it('holds the new password to the register rules (a digit and a special character)', async () => {
    stubApi({});
    const user = userEvent.setup();
    renderAt(<ChangePasswordPage />, '/mypage/changepassword');
    await fill(user, 'Freshpassw');
    expect(submitButton()).toBeDisabled();
  });

  it('changes the password, says so, and says until when withdrawals are paused', async () => {
    const api = stubApi({ '/elex/user/updatePass': envelope({ withdrawalLockedUntil: LOCKED_UNTIL }) });
    const user = userEvent.setup();
    renderAt(<ChangePasswordPage />, '/mypage/changepassword');
    await fill(user);
    await user.click(submitButton());

    expect(await screen.findByText(i18next.t('msg:passwordChanged'))).toBeInTheDocument();
    expect(api.calls).toEqual([
      { path: '/elex/user/updatePass', body: { oldPasswd: 'Secret#123', passwd: 'Fresh#pass9' } },
    ]);
    const time = new Date(LOCKED_UNTIL).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
    expect(screen.getByRole('status')).toHaveTextContent(t('mypage.withdrawalLockedUntil', { time }));
    // The passwords do not stay on the screen.
    for (const input of [oldInput(), newInput(), confirmInput()]) expect(input).toHaveValue('');
  });

  it('marks the current password field with the server’s reason and keeps the form when it is wrong', async () => {
    stubApi({
      '/elex/user/updatePass': envelope({ field: 'oldPasswd' }, 1002, 'The current password is incorrect'),
    });
    const user = userEvent.setup();
    renderAt(<ChangePasswordPage />, '/mypage/changepassword');
    await fill(user);
    await user.click(submitButton());

    // Beside the field (and focused there), not only in a toast that goes away.
    await waitFor(() => expect(oldInput()).toHaveAttribute('aria-invalid', 'true'));
    expect(oldInput()).toHaveAccessibleDescription(i18next.t('msg:passwordIncorrect'));
    expect(oldInput()).toHaveFocus();
    expect(screen.queryByText(i18next.t('msg:passwordChanged'))).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(newInput()).toHaveValue('Fresh#pass9');
    expect(submitButton()).toBeEnabled();
  });
});
