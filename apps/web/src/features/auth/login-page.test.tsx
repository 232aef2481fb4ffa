import { State } from '@elex/contract';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, renderAt, renderRoutes } from '../../test/helpers';
import LoginPage from './login-page';
import { expectCoolDownNote, GOOD_CODE, ISSUED_TOKEN, stubAuthServer } from './testing/stub-auth-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

// The browser router keeps window.location on the page; analytics read the page from it.
beforeEach(() => window.history.pushState({}, '', '/login'));
afterEach(() => window.history.pushState({}, '', '/'));

async function submitLogin(user = userEvent.setup(), email = 'trader@example.com') {
  await user.type(screen.getByLabelText(t('auth.email')), email);
  await user.type(screen.getByLabelText(t('auth.password')), 'Secret#123');
  await user.click(screen.getByRole('button', { name: t('auth.loginSubmit') }));
  return user;
}

/** Types `code` into the open code dialog and confirms it. */
async function confirmCode(user: ReturnType<typeof userEvent.setup>, code: string) {
  const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
  await user.click(within(dialog).getAllByRole('textbox')[0] as HTMLElement);
  await user.keyboard(code);
  await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
  return dialog;
}

const submitButton = () => screen.getByRole('button', { name: t('auth.loginSubmit') });

describe('/login: the form (spec section 5)', () => {
  it('keeps submit disabled until the e-mail matches and the password has 6 characters', async () => {
    stubAuthServer();
    const user = userEvent.setup();
    renderAt(<LoginPage />, '/login');
    expect(submitButton()).toBeDisabled();

    await user.type(screen.getByLabelText(t('auth.password')), 'Secret#123');
    await user.type(screen.getByLabelText(t('auth.email')), 'trader@example');
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByLabelText(t('auth.email')), '.com');
    expect(submitButton()).toBeEnabled();

    await user.clear(screen.getByLabelText(t('auth.password')));
    await user.type(screen.getByLabelText(t('auth.password')), '12345');
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByLabelText(t('auth.password')), '6');
    expect(submitButton()).toBeEnabled();
  });

  it('tells an e-mail without an account at once, with a link to register, and opens no code dialog (issue 15)', async () => {
    stubAuthServer({
      sendCode: async () =>
        envelope({ messageKey: 'loginEmailNotRegistered' }, State.Refused, t('msg:loginEmailNotRegistered')),
    });
    renderAt(<LoginPage />, '/login?redirect=%2Fwithdrawal');
    await submitLogin(userEvent.setup(), 'nobody@example.com');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(t('msg:loginEmailNotRegistered'));
    expect(within(alert).getByRole('link', { name: t('nav.register') })).toHaveAttribute(
      'href',
      '/register?redirect=%2Fwithdrawal',
    );
    expect(screen.queryByRole('dialog', { name: t('auth.codeTitle') })).not.toBeInTheDocument();
  });

  it('keeps submit disabled while the code is being requested', async () => {
    let answer: (response: Response) => void = () => {};
    const server = stubAuthServer({ sendCode: () => new Promise((resolve) => (answer = resolve)) });
    const user = userEvent.setup();
    renderAt(<LoginPage />, '/login');
    await submitLogin(user);

    const loading = screen.getByRole('button', { name: t('common.loading') });
    expect(loading).toBeDisabled();
    await user.click(loading);
    expect(server.bodies('/elex/user/verifyCode')).toHaveLength(1);

    await act(async () => answer(envelope({ resendAfterSeconds: 60 })));
    expect(await screen.findByRole('dialog', { name: t('auth.codeTitle') })).toBeInTheDocument();
    // Behind the open dialog (hidden from assistive technology), the button is back.
    expect(screen.getByRole('button', { name: t('auth.loginSubmit'), hidden: true })).toBeEnabled();
  });

  it('strips the spaces in the e-mail before sending it', async () => {
    const server = stubAuthServer();
    renderAt(<LoginPage />, '/login');
    // Spaces inside: an e-mail field already drops those around the value (HTML value sanitization).
    const user = await submitLogin(userEvent.setup(), 'trader @example.com ');
    await confirmCode(user, GOOD_CODE);
    expect(server.bodies('/elex/user/verifyCode')).toEqual([{ module: 0, email: 'trader@example.com' }]);
    expect(server.bodies('/elex/user/login')).toEqual([
      { email: 'trader@example.com', passwd: 'Secret#123', authcode: GOOD_CODE },
    ]);
  });
});

describe('/login: asking for the code', () => {
  it('says the code was sent and opens the code dialog counting 60 s', async () => {
    const server = stubAuthServer();
    renderAt(<LoginPage />, '/login');
    await submitLogin();
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(await screen.findByText(i18next.t('msg:codeSent'))).toBeInTheDocument();
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '01:00' }))).toBeInTheDocument();
    expect(server.bodies('/elex/user/verifyCode')).toEqual([{ module: 0, email: 'trader@example.com' }]);
  });

  it('opens the code dialog with the seconds left when a code was sent under a minute ago', async () => {
    const server = stubAuthServer({ coolDownSeconds: 42 });
    renderAt(<LoginPage />, '/login');
    await submitLogin();
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '00:42' }))).toBeInTheDocument();
    // No new code was sent: a calm note says the last one is to be used.
    await expectCoolDownNote(42);
    expect(screen.queryByText(i18next.t('msg:codeSent'))).not.toBeInTheDocument();
    // Not a failure: the code mailed moments ago is still to be used.
    expect(server.tracked()).toEqual([]);
  });

  it('sends Login_Error and shows the reason when the code cannot be requested', async () => {
    const server = stubAuthServer({
      sendCode: () => envelope(null, State.TooManyRequests, 'Too many codes for this e-mail, try later'),
    });
    renderAt(<LoginPage />, '/login');
    await submitLogin();
    expect(await screen.findByText('Too many codes for this e-mail, try later')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.tracked()).toEqual([{ event: 'Login_Error', page: '/login', time: expect.any(Number) }]);
  });
});

describe('/login: resending the code (spec section 4)', () => {
  it('resends for the same e-mail and counts 60 s again; a refused resend keeps the resend button', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let refuse = false;
    const server = stubAuthServer({
      sendCode: () =>
        refuse
          ? envelope(null, State.TooManyRequests, 'Too many codes for this e-mail, try later')
          : envelope({ resendAfterSeconds: 60 }, 0, 'Verification code sent'),
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt(<LoginPage />, '/login');
    await submitLogin(user);
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    const countdown = (time: string) => within(dialog).queryByText(t('auth.codeCountdown', { time }));

    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    await user.click(within(dialog).getByRole('button', { name: t('auth.resend') }));
    expect(await within(dialog).findByRole('button', { name: t('common.confirm') })).toBeInTheDocument();
    expect(countdown('01:00')).toBeInTheDocument();
    expect(server.bodies('/elex/user/verifyCode')).toEqual([
      { module: 0, email: 'trader@example.com' },
      { module: 0, email: 'trader@example.com' },
    ]);

    refuse = true;
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    await user.click(within(dialog).getByRole('button', { name: t('auth.resend') }));
    expect(await screen.findByText('Too many codes for this e-mail, try later')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: t('auth.resend') })).toBeEnabled();
    expect(countdown('01:00')).not.toBeInTheDocument();
  });
});

describe('/login: the code confirmed (spec section 4)', () => {
  function renderLogin(url: string) {
    return renderRoutes(
      [
        { path: '/login', element: <LoginPage /> },
        { path: '/withdrawal', element: <h1>withdrawal page</h1> },
        { path: '/', element: <h1>home page</h1> },
      ],
      url,
    );
  }

  it('sends Login_success, stores the token and goes to the redirect target after 1 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = stubAuthServer();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderLogin('/login?redirect=%2Fwithdrawal%3Ftab%3D2');
    await submitLogin(user);
    const started = Date.now();
    await confirmCode(user, GOOD_CODE);

    expect(await screen.findByText(i18next.t('msg:welcome'))).toBeInTheDocument();
    expect(server.tracked()).toEqual([{ event: 'Login_success', page: '/login', time: expect.any(Number) }]);
    expect(server.tracked()[0]?.time).toBeGreaterThanOrEqual(started);
    // The welcome stays for the delay: still here, not yet logged in.
    act(() => {
      vi.advanceTimersByTime(900);
    });
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem('token')).toBeNull();

    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(router.state.location.pathname).toBe('/withdrawal');
    expect(router.state.location.search).toBe('?tab=2');
    expect(window.localStorage.getItem('token')).toBe(ISSUED_TOKEN);
  });

  it('goes to / when there is no redirect', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubAuthServer();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderLogin('/login');
    await submitLogin(user);
    await confirmCode(user, GOOD_CODE);
    await screen.findByText(i18next.t('msg:welcome'));
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends Login_Error, shows the reason and keeps the dialog when the login is refused', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = stubAuthServer();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderLogin('/login?redirect=%2Fwithdrawal');
    await submitLogin(user);
    const dialog = await confirmCode(user, '654321');

    expect(await screen.findByText('Invalid verification code')).toBeInTheDocument();
    expect(server.tracked()).toEqual([{ event: 'Login_Error', page: '/login', time: expect.any(Number) }]);
    expect(dialog).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem('token')).toBeNull();
  });
});
