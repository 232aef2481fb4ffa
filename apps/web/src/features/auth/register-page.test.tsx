import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../test/helpers';
import RegisterPage from './register-page';
import { stubAuthServer, WAIT_MESSAGE } from './testing/stub-auth-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

describe('/register', () => {
  it('keeps redirect and the other query values on its log-in link', () => {
    stubAuthServer();
    renderAt(<RegisterPage />, '/register?redirect=%2Fwithdrawal&channel=x');
    const link = screen.getByRole('link', { name: t('nav.login') });
    const target = new URL(link.getAttribute('href') ?? '', 'http://localhost');
    expect(target.pathname).toBe('/login');
    expect(target.searchParams.get('redirect')).toBe('/withdrawal');
    expect(target.searchParams.get('channel')).toBe('x');
  });

  it('links to /login without a query when it has none', () => {
    stubAuthServer();
    renderAt(<RegisterPage />, '/register');
    expect(screen.getByRole('link', { name: t('nav.login') })).toHaveAttribute('href', '/login');
  });

  it('opens the code dialog with the seconds left when a code was sent under a minute ago', async () => {
    stubAuthServer({ coolDownSeconds: 30 });
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    await user.type(screen.getByLabelText(t('auth.email')), 'newcomer@example.com');
    await user.type(screen.getByLabelText(t('auth.password')), 'Secret#123');
    await user.click(screen.getByRole('button', { name: t('auth.registerSubmit') }));
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '00:30' }))).toBeInTheDocument();
    expect(await screen.findByText(WAIT_MESSAGE(30))).toBeInTheDocument();
  });
});
