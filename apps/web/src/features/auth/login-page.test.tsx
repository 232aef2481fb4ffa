import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../test/helpers';
import LoginPage from './login-page';
import { stubAuthServer, WAIT_MESSAGE } from './testing/stub-auth-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

async function submitLogin() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(t('auth.email')), 'trader@example.com');
  await user.type(screen.getByLabelText(t('auth.password')), 'Secret#123');
  await user.click(screen.getByRole('button', { name: t('auth.loginSubmit') }));
  return user;
}

describe('/login: asking for the code', () => {
  it('says the code was sent and opens the code dialog counting 60 s', async () => {
    const calls = stubAuthServer();
    renderAt(<LoginPage />, '/login');
    await submitLogin();
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(await screen.findByText(i18next.t('msg:codeSent'))).toBeInTheDocument();
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '01:00' }))).toBeInTheDocument();
    expect(calls.find((call) => call.url === '/elex/user/verifyCode')?.body).toEqual({
      module: 0,
      email: 'trader@example.com',
    });
  });

  it('opens the code dialog with the seconds left when a code was sent under a minute ago', async () => {
    stubAuthServer({ coolDownSeconds: 42 });
    renderAt(<LoginPage />, '/login');
    await submitLogin();
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '00:42' }))).toBeInTheDocument();
    // The server's reason still shows: no new code was sent, the last one is to be used.
    expect(await screen.findByText(WAIT_MESSAGE(42))).toBeInTheDocument();
    expect(screen.queryByText(i18next.t('msg:codeSent'))).not.toBeInTheDocument();
  });
});
